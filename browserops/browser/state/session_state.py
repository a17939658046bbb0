"""Everything a browser session remembers between calls, one named field per concern, and what each event resets.

The session (``launch/session.py``) holds one :class:`SessionState` as ``session.state``; the module that owns a
concern reads and writes its field (named beside it below). What an event resets is said here, once:

- **A call that may change a page starts** (every tool but a pure read, :meth:`SessionState.page_may_change`):
  ``acted_at`` — a settle's DOM-quiet window never counts from before it. A person acting while ``record`` watches
  sets it too (:meth:`SessionState.person_acted`).
- **That call ends**, done or failed: ``walk_afresh`` — the next listing or find walks the page anew instead of
  answering from the kept walks (an act can change what a listing shows before any sign of it reaches the kept walk:
  a scroll event fires only at the next frame). The listing that walked clears it.
- **A navigation** (the tab shows another document): nothing here. The latest listing stays, and its numbers are
  refused as stale once the tab shows another address (``numbering/locate.py``); the next listing redraws the
  overlay; the armed change watch compares the address itself.
- **A new document in a frame**: nothing here. Our isolated world in it is a new one (``worlds``, keyed by the
  frame's loader), so the kept walk and the functions sent to the old world went with the old document.
- **A tab closed**: the per-page maps drop it when next read (``worlds``, ``cdp``, ``network``); ``last_views`` and
  ``slow_frames`` hold pages and frames weakly.
- **A browser restart** (``ensure_alive``): nothing. The old browser's pages and frames are never met again, and
  frame labels keep counting, so an id from before never names a new element.
- :meth:`SessionState.forget` (a test's clean slate): everything but the wires of the pages still open (``worlds``,
  ``network``, ``cdp``: one each for a page's life).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import CDPSession, Frame, Page

from browserops.browser.state.frames import FrameIds, FrameView, KeptOrders, PageWorlds
from browserops.browser.state.listing import Listing
from browserops.browser.state.network import NetworkTracker


@dataclass
class OverlayState:
    """The number badges drawn now (``numbering/overlay.py``)."""

    page: Page
    scheme: str
    generation: int
    result: dict[str, Any] | None = None  # what show_overlay reported when it drew this generation


@dataclass
class FocusCursor:
    """Where the last move by role stopped, a screen reader's virtual cursor (``act/focusnav.py``)."""

    frame: Frame
    blind_id: str
    active_at_cursor: str | None


@dataclass
class ArmedWatch:
    """The page state ``numbering/changes.py`` check compares with (set by its arm)."""

    page: Page
    url: str
    frames: frozenset[int]


@dataclass
class BannerSpending:
    """Which domains had their first listing, the ms spent closing banners per document, and the documents where
    a click of the closer was followed by a navigation (never touched again) (``tools/hooks.py``)."""

    domains_seen: set[str] = field(default_factory=set)
    spent: dict[str, float] = field(default_factory=dict)  # document key -> ms
    stopped: set[str] = field(default_factory=set)  # document keys


@dataclass
class FrameRegistry:
    """Each frame's label and blind-id prefix, stable for the session (``numbering/frames.py``)."""

    by_frame: dict[Frame, FrameIds] = field(default_factory=dict)
    next_label: int = 1


# The per-page wires :meth:`SessionState.forget` keeps for pages still open.
PAGE_WIRES = ("worlds", "network", "cdp")


@dataclass
class SessionState:
    """What one browser session remembers between calls (see the module docstring for what each event resets)."""

    # -- numbering/: what the numbers mean and how the page was walked
    listing: Listing | None = None  # the latest listing: what the numbers mean now (elements.py)
    overlay: OverlayState | None = None  # the badges drawn now (overlay.py)
    frames: FrameRegistry = field(default_factory=FrameRegistry)  # labels and id prefixes (frames.py)
    worlds: dict[Page, PageWorlds] = field(default_factory=dict)  # our isolated worlds, per page (worlds.py)
    kept_orders: KeptOrders = field(default_factory=KeptOrders)  # the active page's kept walks (paging.py)
    walk_afresh: bool = False  # the next listing walks anew (listing.py; set when a call that may change ends)
    # Where each page's last unscoped listing found its child frames (scan.py).
    last_views: WeakKeyDictionary[Page, dict[Frame, FrameView]] = field(default_factory=WeakKeyDictionary)
    # Child frames that did not answer a listing in time: the URL they had then and how many short waits they have
    # had since the last whole one (scan.py).
    slow_frames: WeakKeyDictionary[Frame, tuple[str, int]] = field(default_factory=WeakKeyDictionary)
    armed: ArmedWatch | None = None  # the page state a change check compares with (changes.py)
    # -- page/: waiting, tabs, what must not show
    network: dict[Page, NetworkTracker] = field(default_factory=dict)  # one request counter per page (waiting.py)
    acted_at: float | None = None  # time.monotonic() when the latest call that may change a page began
    tool_tabs: list[Page] = field(default_factory=list)  # the tabs a tool opened, not the site (tabs.py)
    typed_secrets: set[str] = field(default_factory=set)  # typed into sensitive fields, never written (redaction.py)
    banners: BannerSpending = field(default_factory=BannerSpending)  # the banner closer's budget (tools/hooks.py)
    # -- act/
    focus_cursor: FocusCursor | None = None  # where the last move by role stopped (focusnav.py)
    # -- launch/
    cdp: dict[Page, CDPSession | None] = field(default_factory=dict)  # one DevTools session per page (cdp.py)

    @contextmanager
    def page_may_change(self, started: float) -> Iterator[None]:
        """Around a call that may change a page (``started``: when it began, ``time.monotonic()``): a settle never
        counts its quiet window from before it, and once it ends, done or not, the next listing walks afresh (a
        listing made inside the call came before whatever it changed)."""
        self.acted_at = started
        try:
            yield
        finally:
            self.walk_afresh = True

    def person_acted(self, at: float) -> None:
        """A person acted on the page (``record`` watching): a settle counts its quiet window from then."""
        self.acted_at = at

    def forget(self) -> None:
        """Start every concern afresh (a test's clean slate), except the wires of the pages still open.

        A page's request counter, its DevTools session and the isolated worlds asked of it are one each for the
        page's life: they hold listeners on the page and scripts Chromium runs with every document. Forgetting
        them while the page lives would leave them working and start another of each at the next call — a test
        suite forgetting per test on one kept tab had 87 of each after 87 tests, every request and page event
        handled 87 times (the tests after them 4x slower)."""
        kept = {name: {page: wire for page, wire in getattr(self, name).items() if not page.is_closed()}
                for name in PAGE_WIRES}
        for name, value in vars(SessionState()).items():
            setattr(self, name, kept.get(name, value))
