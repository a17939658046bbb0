"""A foreign error with an empty message still becomes a clear BrowserOpsError (its first line used to be taken by
hand, ``str(exc).splitlines()[0]``, which raises IndexError on an empty message: a traceback instead of a code)."""

from __future__ import annotations

import pytest
from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import first_line
from browserops.browser.page import navigation
from browserops.contract import BrowserOpsError, ErrorCode


async def _fails(message: str) -> None:
    raise PlaywrightError(message)


@pytest.mark.parametrize("message", ["", "   \n  "])
async def test_a_navigation_error_without_a_message_says_what_failed(message: str) -> None:
    with pytest.raises(BrowserOpsError) as caught:
        await navigation._run(None, "Opening the page", _fails(message), 1000)  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.NAVIGATION_FAILED
    assert caught.value.message.startswith("Opening the page failed: Error. Check the URL")


def test_the_first_line_of_a_long_error_is_kept_and_cut() -> None:
    assert first_line(PlaywrightError("Target closed\nCall log:\n  - waiting")) == "Target closed"
    assert len(first_line(PlaywrightError("x" * 1000))) == 300
