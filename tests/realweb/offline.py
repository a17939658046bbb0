"""A browser for the saved real pages that cannot reach off this machine, and learns so at once.

The saved pages' own scripts build requests to ads, analytics, fonts and CDNs at run time (``blank_offsite`` only
empties the URLs written in the HTML). Offline, each of those waits on the host's resolver: up to 5 s a name on
CI, so pages waited that long for ``load`` and a run over the corpus spent most of its time waiting. With every
host name but the loopback failing at once, the pages end in the same state (the same failed requests, the same
error page for a page that sends itself elsewhere), only without the wait.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from browserops.browser.launch.session import BrowserSession, SessionOptions

OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


@contextlib.asynccontextmanager
async def offline_session() -> AsyncIterator[BrowserSession]:
    async with BrowserSession(SessionOptions(extra_args=OFFLINE_ARGS)) as session:
        yield session
