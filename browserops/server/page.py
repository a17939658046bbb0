"""The accessible chat page: one HTML document with its CSS and script inlined under a per-response nonce.

Inlining keeps the page a single token-protected request (a ``<script src>`` could not send the token) and
lets the Content-Security-Policy forbid every other script.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def _asset(name: str) -> str:
    return files("browserops.server").joinpath("static", name).read_text(encoding="utf-8")


def render_page(nonce: str) -> str:
    # The assets are ours and contain no placeholders, so plain replacement is safe.
    return (
        _asset("chat.html")
        .replace("{{NONCE}}", nonce)
        .replace("{{CSS}}", _asset("chat.css"))
        .replace("{{JS}}", _asset("chat.js"))
    )
