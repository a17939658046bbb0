"""What the plain Playwright baselines share: the screenshots browserops takes around every acting step."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tests.realapps.corpus import shoot


class Shots:
    """Numbered before/after screenshots of each acting step, as a run's evidence bundle has them."""

    def __init__(self, page: Any, folder: Path) -> None:
        self.page = page
        self.folder = folder
        self.number = 0
        folder.mkdir(parents=True, exist_ok=True)

    async def act(self, label: str, action: Callable[[], Awaitable[Any]]) -> Any:
        self.number += 1
        await shoot(self.page, self.folder / f"{self.number:03d}_before_{label}.png")
        result = await action()
        await shoot(self.page, self.folder / f"{self.number:03d}_after_{label}.png")
        return result
