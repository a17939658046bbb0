"""A worker's guard made late on purpose, for the origin-rule tests: under load the guard's ``Runtime.evaluate`` was
seen to take longer than a page takes to navigate away (a CI run), and a navigation that commits first releases the
worker unguarded. A fixed delay on that one command makes the guard late every time, so a test of the race does not
depend on the machine's load."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from browserops.browser.launch import targets

GUARD_DELAY_S = 0.5


@pytest.fixture
def late_guard(monkeypatch: pytest.MonkeyPatch) -> float:
    send = targets.ChildLink._send

    async def late(self: targets.ChildLink, method: str, params: dict[str, Any]) -> Any:
        if method == "Runtime.evaluate" and self.info.get("type") == "worker":
            await asyncio.sleep(GUARD_DELAY_S)
        return await send(self, method, params)

    monkeypatch.setattr(targets.ChildLink, "_send", late)
    return GUARD_DELAY_S
