"""A popup list as its page answers it: waiting for what was typed to be answered, waiting until the list has stopped
changing before an option is clicked, and clicking an option that may be redrawn away meanwhile (used by
:mod:`browserops.browser.act.selecting`).

A searching list (Select2 over AJAX, Tom Select's load, an autocomplete) goes on showing the options of its last answer
while the page asks its server again — after typing, on opening, after a pick in a multiple select — and redraws them,
new elements, when the answer comes: an option clicked in the old list lands on one being replaced.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError

from browserops.browser.act.effects import action_error
from browserops.browser.js.element import PopupOption
from browserops.browser.numbering.locate import Located, other_element
from browserops.browser.state.network import NetworkTracker
from browserops.contract import ErrorCode

Look = Callable[[], Awaitable[PopupOption]]  # one look at the list: the option best matching the text, stamped

POPUP_WAIT_S = 1.5
# Suggestions a server sends for typed text: waited for this long at most (the action's own timeout may be shorter).
SUGGEST_WAIT_S = 6.0
# ... but no longer once the page has asked and been answered: once it sent a fetch/XHR after the typing (its
# debounce is over) and the network has been quiet SUGGEST_RENDER_S since (the answer rendered); when it asks
# nothing, POPUP_WAIT_S after typing (a widget's debounce before it asks) with the network quiet
# SUGGEST_ANSWERED_QUIET_S.
SUGGEST_ANSWERED_QUIET_S = 1.0
SUGGEST_RENDER_S = 0.3
# An option is clicked once its list has stopped changing: the same element found for this long, with no request
# of the page in flight (a searching list redraws its options when its server answers: a click on the option it
# showed before lands on one being replaced).
LIST_STILL_S = 0.3
# A found option not clickable in this time has most likely been redrawn away (its stamp gone with it): looked
# for again.
OPTION_CLICK_MS = 3000


async def wait_for_match(look: Look, seconds: float, network: NetworkTracker) -> PopupOption:
    """After typing: until the exact option shows (as a script waits for it), or an option only starting with or
    holding the text reads the same twice with no request in flight (the list stable: a fuller answer could still
    bring the exact one or more alike), or the suggestions have had their chance (:func:`answered`)."""
    typed = time.monotonic()
    deadline = typed + seconds
    found = await look()
    before: PopupOption = {}
    while time.monotonic() < deadline:
        if found.get("id") and (found.get("exact") or (
                found.get("label") == before.get("label") and not network.awaited())):
            break
        if not found.get("id") and answered(network, typed):
            break
        await asyncio.sleep(0.05)  # polling the page for the suggestions the server sends
        before, found = found, await look()
    return found


async def list_still(look: Look, found: PopupOption, network: NetworkTracker,
                      began: float, typed: str | None, seconds: float) -> PopupOption:
    """The option to click once its list has stopped changing (bounded by ``seconds``; then the last look): the same
    element found for LIST_STILL_S with no request of the page in flight, what the page asked since the pick began
    answered long enough ago to be shown, and — when text was typed — every option shown holding it, unless the
    page has answered for the text (a list that searches more than names). A searching list redraws its options
    when its server answers (Select2 over AJAX shows the options from before until then): clicking the one it
    showed before lands on one being replaced."""
    deadline = time.monotonic() + seconds
    held = time.monotonic()
    while time.monotonic() < deadline:
        heard = network.last_asked < began or (network.answered_ago_ms() or 0.0) >= SUGGEST_RENDER_S * 1000
        about = typed is None or found.get("about") or answered(network, began)
        if (found.get("id") and time.monotonic() - held >= LIST_STILL_S and not network.awaited() and heard
                and about):
            return found
        await asyncio.sleep(0.05)  # polling the list the page is redrawing
        again = await look()
        if again.get("id") != found.get("id") or again.get("shown") != found.get("shown"):
            held = time.monotonic()  # redrawn (or grown, or loading): still from now on
        found = again
        if not found.get("id") and not found.get("open"):
            break  # the list closed: nothing left to wait for
    return found


def answered(network: NetworkTracker, typed: float) -> bool:
    """Whether the suggestions for what was typed have had their chance: the widget's debounce is over and every
    request the page made since (the search it sent) has been answered, long enough ago to have been shown. A page
    whose requests never stop (polling) keeps the full SUGGEST_WAIT_S."""
    if network.last_asked >= typed:  # the widget asked its server: its answer rendered is all there is to wait for
        return network.idle_for() >= SUGGEST_RENDER_S
    return time.monotonic() - typed >= POPUP_WAIT_S and network.idle_for() >= SUGGEST_ANSWERED_QUIET_S


async def click_option(located: Located, found: PopupOption, label: str, timeout_ms: int) -> bool:
    """Click the option found; False when it vanished (its list redrew) before or while it was clicked."""
    # The option was stamped just now in the combobox's own frame (popupOptions looks in its document).
    try:
        option = await other_element(located, str(found["id"]))
        if option is None:
            return False
        await option.click(timeout=min(timeout_ms, OPTION_CLICK_MS))
    except PlaywrightError as exc:
        error = action_error(f"Choosing {found.get('label')!r} in {label}", exc)
        if error.code is ErrorCode.STALE_INDEX or await other_element(located, str(found["id"])) is None:
            return False
        raise error from exc
    return True


