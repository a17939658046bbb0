"""Our page-side JavaScript (``browser/js/*.js``), shipped as package data and evaluated with Playwright.

Each entry script defines ``main``; :func:`page_script` wraps ``lib.js`` + the entry into one function
expression, so an evaluate never depends on anything left on the page (a page cannot swap our helpers
between calls). No caller-supplied JavaScript ever goes through here: arguments travel as JSON.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def _source(name: str) -> str:
    return resources.files("browserops.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")


@cache
def page_script(name: str) -> str:
    """``(args) => main(args)`` for ``frame.evaluate(script, args)``."""
    return f"(args) => {{\n{_source('lib')}\n{_source(name)}\nreturn main(args);\n}}"


@cache
def element_script(name: str) -> str:
    """``(el, args) => main(el, args)`` for ``locator.evaluate(script, args)``."""
    return f"(el, args) => {{\n{_source('lib')}\n{_source(name)}\nreturn main(el, args);\n}}"


@cache
def document_script(name: str) -> str:
    """An element script run against the frame's document itself: ``main(null, args)``."""
    return f"(args) => ({element_script(name)})(null, args)"
