"""The origin rules a worker's guard applies (``js/worker_guard.js`` refusalOf, run in real Chromium) give exactly
the answers of ``OriginRules.refusal``: the guard inside a worker is the rules' only check of its WebSockets."""

from __future__ import annotations

from browserops.browser.js.worker_guard import origin_refusal
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import expression
from browserops.origins import OriginRules

RULES = [
    OriginRules.of(["http://127.0.0.1:8000"]),
    OriginRules.of(["example.com"]),
    OriginRules.of(["*.example.com", "localhost:*"]),
    OriginRules.of(["https://example.com", "http://[::1]:8080"], ["evil.example.com"]),
    OriginRules.of([], ["127.0.0.1:9000"]),
    OriginRules.of(["file://"]),
    OriginRules.of(["*"]),
    OriginRules.of(["http://127.0.0.1:8000"]).narrowed(["http://127.0.0.1:8000"], by="the plan's prepare"),
    OriginRules.of([]).narrowed([], by="the plan's prepare"),  # closed: nothing allowed
]
URLS = [
    "ws://127.0.0.1:8000/chat", "wss://127.0.0.1:8000/chat", "ws://127.0.0.1:8001/chat", "http://127.0.0.1:8000/",
    "ws://example.com/x", "wss://example.com:8443/x", "ws://www.example.com/", "wss://evil.example.com/",
    "ws://EXAMPLE.com./x", "ws://localhost:1234/", "ws://[::1]:8080/", "ws://127.0.0.1:9000/", "ws://127.0.0.1/",
    "data:text/plain,hi", "blob:http://127.0.0.1:8000/abc", "about:blank", "ftp://example.com/", "/relative",
    "ws://user:pass@example.com/", "http://xn--bcher-kva.example/", "file:///etc/passwd",
]
BASE = "http://127.0.0.1:8000/worker.js"


async def test_the_guard_in_a_worker_refuses_what_the_rules_refuse() -> None:
    async with BrowserSession() as session:
        for rules in RULES:
            data = rules.to_json()
            for url in URLS:
                absolute = url if ":" in url.split("/")[0] else "http://127.0.0.1:8000" + url
                in_page = await session.page.evaluate(expression(origin_refusal(data, url, BASE)))
                assert in_page == rules.refusal(absolute), (rules, url)
