"""A browser for the saved real pages that cannot reach off this machine, and learns so at once.

The saved pages' own scripts build requests to ads, analytics, fonts and CDNs at run time (``blank_offsite`` only
empties the URLs written in the HTML). Offline, each of those waits on the host's resolver: up to 5 s a name on
CI, so pages waited that long for ``load`` and a run over the corpus spent most of its time waiting. With every
host name but the loopback failing at once, the pages end in the same state (the same failed requests, the same
error page for a page that sends itself elsewhere), only without the wait.

One thing fails at once that on its site never fails at all: an image's fallback. A page writes
``<img src=… onerror="this.src='https://…/default.png'">``; offline the image fails (its URL blanked), the
handler sets the fallback, the fallback fails at once too, and the handler sets it again, forever: 65408257dbe4…
made 2,750 requests in 7 s and kept a core busy for as long as it was open (measured with tests/cpu_meter.py:
37 CPU s of the listing test's 140 on an idle machine, 170 s and a timeout at load 20, which closed the browser
under the chunks after it). On its site the fallback loads once and the handler never runs again. So this
browser lets an image's error handlers run once per URL that failed: an image failing again on a URL it already
failed on stays broken, as it was after the first failure, and its handlers are not run again (a capture listener
on the window stops the event before it reaches the image).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from browserops.browser.launch.session import BrowserSession, SessionOptions

OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]

# In every document before its own scripts: an <img>'s error event reaches its handlers once per failed URL.
ONE_FALLBACK_JS = """(() => {
  const failed = new WeakMap();
  window.addEventListener("error", (event) => {
    const img = event.target;
    if (!(img instanceof HTMLImageElement)) return;
    const url = img.currentSrc || img.src;
    const seen = failed.get(img) || new Set();
    failed.set(img, seen);
    if (seen.has(url)) { event.stopImmediatePropagation(); return; }
    seen.add(url);
  }, true);
})();"""


@contextlib.asynccontextmanager
async def offline_session() -> AsyncIterator[BrowserSession]:
    async with BrowserSession(SessionOptions(extra_args=OFFLINE_ARGS)) as session:
        await session.context.add_init_script(script=ONE_FALLBACK_JS)
        yield session
