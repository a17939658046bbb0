"""What a handler runs with: the :class:`ToolContext` (session, settings, workspace, the call's :class:`Signals`)
and a :class:`Tool`, a definition bound to its handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.tools.definitions import ToolArgs, ToolDef


@dataclass
class Signals:
    """Facts one call's handler reports about what it did, beside its result data, for whoever runs it (the
    post-action hook reads ``navigated``). Reset before every call."""

    acted: bool = False  # acted on an element
    navigated: bool = False  # the active tab shows another document, or another tab is active
    new_tab: int | None = None  # the index of a tab the call opened
    downloaded: str | None = None  # the path of a file it saved
    uploaded: int = 0  # files it attached
    banners_closed: int = 0  # overlays it closed
    dialog_answered: bool = False


@dataclass
class ToolContext:
    """What a handler may use: the browser session, the effective settings and the workspace."""

    session: BrowserSession
    settings: Settings
    workspace: Path
    signals: Signals = field(default_factory=Signals)

    def workspace_path(self, relative: str) -> Path:
        path = Path(relative)
        return path if path.is_absolute() else self.workspace / path


A = TypeVar("A", bound=ToolArgs)
Handler = Callable[[ToolContext, A], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Tool(Generic[A]):
    """A definition and the handler that runs it: what a :class:`~browserops.tools.runner.ToolRunner` runs."""

    definition: ToolDef[A]
    handler: Handler[A]

    @property
    def name(self) -> str:
        return self.definition.name
