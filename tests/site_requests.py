"""The demo site's own request log (``GET /__requests``), read from a test: the event "the browser asked the site
for this path", to act at a moment a test names instead of after a guessed sleep."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from typing import Any

from browserops.demo_site import DemoSite


async def _site_json(url: str, method: str = "GET") -> dict[str, Any]:
    def fetch() -> dict[str, Any]:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=10) as answer:
            return dict(json.loads(answer.read()))

    return await asyncio.to_thread(fetch)


async def reset_requests(site: DemoSite) -> None:
    """Empty the site's request log."""
    await _site_json(site.base_url + "/__requests/reset", "POST")


async def requested(site: DemoSite, path: str, timeout_s: float = 30.0) -> None:
    """Return once the site's request log holds a request for ``path`` (each look is one HTTP round trip)."""
    deadline = time.monotonic() + timeout_s
    while not any(r["path"] == path for r in (await _site_json(site.base_url + "/__requests"))["requests"]):
        assert time.monotonic() < deadline, f"the browser never asked the site for {path}"
