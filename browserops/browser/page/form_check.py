"""What a form says is wrong with it, read live: the browser's constraint validation, fields the page marked
``aria-invalid``, and visible alerts in the form (``js/formcheck.js``). Reads only; fires no ``invalid`` event."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browserops.browser.js import formcheck as formcheck_js
from browserops.browser.js.formcheck import FormProblem
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import locate
from browserops.browser.scripts import call_in_frame
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode


async def form_problems(session: BrowserSession, element: ElementRef, *, limit: int = 20) -> list[FormProblem]:
    """The problems of the form the element ``target`` (a number of the latest listing, or a blind id) is in."""
    try:
        _, found = await locate(session, element, formcheck_js.problems(limit))
    except PlaywrightError as exc:
        why = str(exc).splitlines()[0] if str(exc) else "it went away"
        raise BrowserOpsError(ErrorCode.STALE_INDEX, f"Could not read the form of element {element!r}: {why}. List "
                              "the elements again.") from exc
    return list(found)


async def page_form_problems(page: Page, *, limit: int = 20) -> list[FormProblem]:
    """The fields of every frame of the page marked aria-invalid (a frame navigating meanwhile says nothing)."""
    found: list[FormProblem] = []
    for frame in page.frames:
        if frame.is_detached():
            continue
        try:
            found.extend(await call_in_frame(frame, formcheck_js.page_problems(limit)))
        except PlaywrightError:
            continue
    return found[:limit]
