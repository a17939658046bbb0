"""Sensitive values out of the evidence: screenshots and ARIA snapshots never show what was typed into a
password, one-time-code, card, IBAN… field, even when the page echoes it (a show-password toggle, a card preview).

- Typing into a sensitive field (:func:`note_typed`, by the field's type and name in the policy's vocabulary,
  policy_words.SENSITIVE) remembers the text for this session, in memory only.
- :func:`redacted` wraps a screenshot: every frame draws opaque boxes over its sensitive fields (type,
  ``autocomplete``, ``inputmode`` and name — the same vocabulary, see ``js/redact.js``) and over each element
  whose text shows a remembered value (compared by letters and digits, so "4111 1111 1111 1111" in a preview is
  the typed "4111111111111111"), and removes them after the shot. Opaque, not blurred: a blur of a short text
  can be undone.
- :func:`mask_snapshot` replaces remembered values (in every spelling, privacy.value_forms) and the value of a
  textbox named like a sensitive field with ``[hidden]`` in an ARIA snapshot.

What it cannot know: a value the user typed by hand (a hand-off) is covered where its field is recognised as
sensitive, not where the page echoes it elsewhere.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Error as PlaywrightError

from browserops.browser.js import redact as redact_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import call_in_frame
from browserops.privacy import value_forms
from browserops.words import js_vocabulary, sensitive_field_hints

HIDDEN = "[hidden]"
# An ARIA snapshot line of a field with its value: `- textbox "Card number": 4111 1111 1111 1111`.
_FIELD_LINE = re.compile(r'^(\s*- (?:textbox|searchbox|spinbutton|combobox) "([^"]*)"[^:\n]*: )(.+)$', re.MULTILINE)


def note_typed(session: BrowserSession, text: str, *, name: str, input_type: str = "") -> None:
    """Remember ``text`` when the field it was typed into is sensitive."""
    if text.strip() and sensitive_field_hints(name, input_type):
        session.state.typed_secrets.add(text.strip())


def typed_secrets(session: BrowserSession) -> list[str]:
    return sorted(session.state.typed_secrets)


@asynccontextmanager
async def redacted(session: BrowserSession) -> AsyncIterator[int]:
    """Boxes over sensitive fields and echoed secrets in every frame while the block runs (it takes the
    screenshot); yields how many were drawn. A frame that cannot be reached (navigating) draws none."""
    layer = f"data-bo-redact-{secrets.token_hex(4)}"
    call = redact_js.draw(layer, js_vocabulary(), typed_secrets(session))
    frames = [f for f in session.page.frames if not f.is_detached()]
    drawn = 0
    try:
        for frame in frames:
            try:
                drawn += (await call_in_frame(frame, call))["boxes"]
            except PlaywrightError:
                continue
        yield drawn
    finally:
        for frame in frames:
            if not frame.is_detached():
                try:
                    await call_in_frame(frame, redact_js.clear(layer))
                except PlaywrightError:
                    continue


def _spaced(value: str) -> re.Pattern[str] | None:
    """``value``'s letters and digits with any separators between them: "4111 1111 1111 1111" in a card preview
    is the typed "4111111111111111"."""
    chars = [c for c in value if c.isalnum()]
    if len(chars) < 4:
        return None
    return re.compile(r"[\s./()-]*".join(re.escape(c) for c in chars), re.IGNORECASE)


def mask_snapshot(text: str, session: BrowserSession) -> str:
    """``text`` (an ARIA snapshot) with remembered secrets and sensitive fields' values replaced by [hidden]."""
    for form in sorted({f for v in typed_secrets(session) for f in value_forms(v)}, key=len, reverse=True):
        text = text.replace(form, HIDDEN)
    for value in typed_secrets(session):
        spaced = _spaced(value)
        if spaced is not None:
            text = spaced.sub(HIDDEN, text)

    def field_value(match: re.Match[str]) -> str:
        return match.group(1) + HIDDEN if sensitive_field_hints(match.group(2)) else match.group(0)

    return _FIELD_LINE.sub(field_value, text)
