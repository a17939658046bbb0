"""Does a text field listen to key events? That decides how :func:`browserops.browser.act.actions.type_text` types.

Typing key by key (a keydown, keypress, input and keyup per character, each a message to the browser) costs
about 3 ms a character; inserting the text at once (``Input.insertText``, one ``beforeinput`` + ``input``
event, as an input method commits text, and as Playwright's ``fill`` does) costs one message. Frameworks
(React, Vue, Angular, plain ``input`` listeners) see both alike; only a page that reacts to the keys
themselves (validation on keyup, a character counter on keydown, a mask on keypress, autocomplete) needs
the keys. Page JavaScript cannot see listeners added with ``addEventListener``, so this asks Chromium's
DevTools protocol (``getEventListeners`` of the command-line API) about the element and every node above
it (shadow roots included) up to, not including, the document: a listener on the document or window is
nearly always a page-wide shortcut that ignores text fields. When the answer cannot be had (an element in a
child frame, a browser without the protocol) the answer is "yes": key by key, as before.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from browserops.browser.js import keylisteners as keylisteners_js
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import check_blind_id
from browserops.browser.scripts import run_devtools


async def listens_to_keys(session: BrowserSession, frame: Frame, blind_id: str) -> bool:
    """True when the element (or a node above it, below the document) has a keydown, keypress or keyup
    listener, or when that cannot be told."""
    if frame.parent_frame is not None:
        return True
    cdp = await page_cdp(session, frame.page)
    if cdp is None:
        return True
    try:
        answer = await run_devtools(cdp, keylisteners_js.listens_to_keys(check_blind_id(blind_id)),
                                    command_line_api=True)
    except PlaywrightError:  # PageScriptError included: the script threw
        return True
    return answer is not False
