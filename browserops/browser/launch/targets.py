"""Every part of a page that no route sees into, watched from before it runs: the page's own requests (its DevTools
``Fetch`` tap, :mod:`~browserops.browser.launch.wire`), its cross-site frames (each a target of its own, with its own
tap) and its dedicated workers (whose WebSockets nothing on the wire can stop).

A page gets two DevTools sessions of ours. ``talk`` taps the page and auto-attaches its frames' and workers' targets
non-flat (Playwright's CDPSession can only address a child through ``Target.sendMessageToTarget``), each waiting for
us before it starts: a cross-site frame gets its own tap (so its requests' redirect hops are under the rules too) and
a script that refuses workers in it (nothing could hold theirs) before it may load; a dedicated worker gets, in its
global scope and before its script exists, the guard of ``js/worker_guard.js`` (a WebSocket the rules refuse — any,
in prepare's fence — throws before it connects). ``hold`` auto-attaches the same workers flat: Chromium then defers a
worker's script until that session lets go, whoever else resumes it (Playwright resumes every worker at once), so
the guard is always in first; a worker whose guard could not be put in stays held. Chromium lets go of a held worker
whose document is being replaced, though, and the worker then runs unguarded until its thread ends (long enough to
connect a WebSocket): so a navigation of the page waits in its tap while a worker's guard is still going in
(:meth:`PageWire.guards_in`). A ``SharedWorker`` is no child of
a page, so nothing holds it: a guarded context refuses it in every document (:func:`refuse_shared_workers`, an init
script Playwright runs before the page's own).

:class:`PageWires` makes a page's wire when the session needs it — origin rules, a run's ledger, a rehearsal's fence —
and re-aims the taps when that changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import weakref
from collections.abc import Callable
from typing import Any

import orjson
from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js.worker_guard import BINDING, PAGE_BINDING, guard_worker, refuse_workers
from browserops.browser.launch.wire import HopGuard, Send, TapGone, TapListener, WireTap
from browserops.browser.scripts import add_standalone, expression

log = logging.getLogger(__name__)

Refused = Callable[[str, str, str, str, "int | None"], None]  # url, rule, what, frame, tab
# What a guard may report (js/worker_guard.js). The bindings it tells through are callable by the page's own scripts
# too, so a report naming anything else is not ours: dropped, and no report's words reach a notice unchecked (the
# rule is worked out again on this side: OriginGuard.wire_refused).
WEBSOCKET_REPORT = "a WebSocket connection of a worker"
REPORTS = frozenset({WEBSOCKET_REPORT, "a Worker", "a SharedWorker", "a Worker started from a worker",
                     "a SharedWorker started from a worker"})
ANSWER_S = 10.0  # a child that does not answer a command in this long is gone
HOLD_S = 30.0  # a held worker whose guard did not come in this long stays held (never unguarded)
_FRAMES_AND_WORKERS = [{"type": "iframe", "exclude": False}, {"type": "worker", "exclude": False}, {"exclude": True}]
_WORKERS = [{"type": "worker", "exclude": False}, {"exclude": True}]


class Link:
    """A DevTools session to one target, whose events are dispatched by method, and whose non-flat children
    (attached with ``Target.setAutoAttach``) are links of their own."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.children: dict[str, ChildLink] = {}

    def on(self, method: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.handlers[method] = handler

    def event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Target.receivedMessageFromTarget":
            child = self.children.get(str(params.get("sessionId")))
            if child is not None:
                child.message(str(params.get("message", "")))
            return
        if method == "Target.detachedFromTarget":
            gone = self.children.pop(str(params.get("sessionId")), None)
            if gone is not None:
                gone.gone()
        handler = self.handlers.get(method)
        if handler is not None:
            handler(params)


class RootLink(Link):
    """A page's own session (a Playwright CDPSession)."""

    def __init__(self, cdp: CDPSession) -> None:
        super().__init__(cdp.send)
        for method in ("Target.receivedMessageFromTarget", "Target.detachedFromTarget", "Target.attachedToTarget",
                       "Fetch.requestPaused", "Runtime.bindingCalled"):
            cdp.on(method, lambda params, m=method: self.event(m, params))


class ChildLink(Link):
    """A child target reached through its parent's session (``Target.sendMessageToTarget``)."""

    _ids = itertools.count(1)

    def __init__(self, parent: Link, session_id: str, info: dict[str, Any]) -> None:
        super().__init__(self._send)
        self.parent, self.session_id, self.info = parent, session_id, info
        self._answers: dict[int, asyncio.Future[Any]] = {}

    async def _send(self, method: str, params: dict[str, Any]) -> Any:
        number = next(self._ids)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._answers[number] = answer
        message = orjson.dumps({"id": number, "method": method, "params": params}).decode()
        try:
            await self.parent.send("Target.sendMessageToTarget", {"sessionId": self.session_id, "message": message})
            return await asyncio.wait_for(answer, ANSWER_S)
        except TimeoutError as exc:
            raise TapGone(f"{method} got no answer") from exc
        finally:
            self._answers.pop(number, None)

    def message(self, raw: str) -> None:
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return
        if "id" in data:
            answer = self._answers.get(int(data["id"]))
            if answer is not None and not answer.done():
                if "error" in data:
                    answer.set_exception(TapGone(str(data["error"].get("message", "error"))))
                else:
                    answer.set_result(data.get("result", {}))
        elif "method" in data:
            self.event(str(data["method"]), data.get("params") or {})

    def gone(self) -> None:
        for answer in self._answers.values():
            if not answer.done():
                answer.set_exception(TapGone("the target went away"))


class PageWire:
    """One page's sessions and what hangs off them (see the module)."""

    def __init__(self, wires: PageWires, page: Page) -> None:
        self.wires, self.page = wires, page
        _WIRED[page] = self
        self.taps: list[WireTap] = []
        self._guarded: dict[str, asyncio.Future[bool]] = {}  # worker target id -> its guard is in
        self._tasks: set[asyncio.Task[None]] = set()

    def tab(self) -> int | None:
        pages = self.wires.pages()
        return pages.index(self.page) if self.page in pages else None

    async def start(self, context: BrowserContext) -> None:
        """The parts the browser process keeps (the tap, the auto-attach of frames and workers): in place before
        this returns, so the page's next request is under them. What its page worlds get (the binding that reports
        refusals) follows in a task: a renderer takes DevTools commands only once a navigation under way has
        committed, and that navigation may be the very request waiting for this."""
        talk = await context.new_cdp_session(self.page)
        root = RootLink(talk)
        await self._tap(root, "page")
        self._adopt(root)
        hold = await context.new_cdp_session(self.page)
        hold.on("Target.attachedToTarget", lambda event: self._hold(hold, event))
        await hold.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                                 "flatten": True, "filter": _WORKERS})
        await root.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                                 "flatten": False, "filter": _FRAMES_AND_WORKERS})
        self._spawn(self._page_worlds(root))

    async def _page_worlds(self, root: RootLink) -> None:
        with contextlib.suppress(PlaywrightError):
            await self._refusals(root, [], "page")

    async def _tap(self, link: Link, frame: str) -> WireTap:
        tap = WireTap(link.send, self.wires.listener, self.wires.guard, frame=frame, tab=self.tab,
                      before_document=self.guards_in, documents=lambda: self.wires.fenced)
        link.on("Fetch.requestPaused", tap.on_paused)
        self.taps.append(tap)
        await tap.enable()
        return tap

    async def _refusals(self, link: Link, names: list[str], frame: str) -> None:
        """Report what the target's guards refuse (their binding), and refuse ``names`` in its page worlds."""
        link.on("Runtime.bindingCalled", lambda event: self._told(event, frame))
        await link.send("Runtime.addBinding", {"name": BINDING})
        if names:
            script = expression(refuse_workers(names, self.wires.refusal_rule))
            await link.send("Page.addScriptToEvaluateOnNewDocument", {"source": script})

    def _told(self, event: dict[str, Any], frame: str) -> None:
        if event.get("name") != BINDING:
            return
        with contextlib.suppress(orjson.JSONDecodeError, AttributeError, TypeError):
            report = orjson.loads(str(event.get("payload", "")))
            if report.get("what") in REPORTS:
                self.wires.refused(str(report.get("url", ""))[:300], str(report.get("rule", ""))[:300],
                                   str(report["what"]), frame, self.tab())

    def _adopt(self, link: Link) -> None:
        """Children of ``link`` attached from now on (frames and workers, waiting for us) get their guards."""
        def attached(event: dict[str, Any]) -> None:
            child = ChildLink(link, str(event.get("sessionId")), dict(event.get("targetInfo") or {}))
            link.children[child.session_id] = child
            if child.info.get("type") == "worker":
                self._guard_of(str(child.info.get("targetId")))  # pending from now: a navigation waits for it
                self._spawn(self._worker(child))
            else:
                self._spawn(self._frame(child))
        link.on("Target.attachedToTarget", attached)

    async def _frame(self, child: ChildLink) -> None:
        try:
            await self._tap(child, "frame")
            await self._refusals(child, ["Worker", "SharedWorker"], "frame")
            self._adopt(child)
            await child.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                                      "flatten": False, "filter": _FRAMES_AND_WORKERS})
        except (TapGone, PlaywrightError) as exc:
            log.info("a cross-site frame went before its guard was in: %s", exc)
        finally:
            with contextlib.suppress(TapGone, PlaywrightError):
                await child.send("Runtime.runIfWaitingForDebugger", {})

    async def _worker(self, child: ChildLink) -> None:
        ok = False
        try:
            child.on("Runtime.bindingCalled", lambda event: self._told(event, "worker"))
            await child.send("Runtime.addBinding", {"name": BINDING})
            call = guard_worker(self.wires.rules(), fence=self.wires.fenced)
            answer = await child.send("Runtime.evaluate", {"expression": expression(call), "returnByValue": True})
            ok = not answer.get("exceptionDetails")
        except (TapGone, PlaywrightError) as exc:
            log.info("a worker went before its guard was in: %s", exc)
        finally:
            with contextlib.suppress(TapGone, PlaywrightError):
                await child.send("Runtime.runIfWaitingForDebugger", {})
        guard = self._guard_of(str(child.info.get("targetId")))
        if not guard.done():
            guard.set_result(ok)

    def _guard_of(self, target: str) -> asyncio.Future[bool]:
        found = self._guarded.get(target)
        if found is None:
            found = self._guarded[target] = asyncio.get_running_loop().create_future()
        return found

    def _hold(self, hold: CDPSession, event: dict[str, Any]) -> None:
        self._guard_of(str((event.get("targetInfo") or {}).get("targetId")))  # pending from the attach on
        self._spawn(self._held(hold, event))

    async def guards_in(self) -> None:
        """Wait until every worker held for its guard has it (or is known to stay held), at most ``HOLD_S``: a
        document request of the page waits here, so no navigation releases a worker before its guard is in."""
        pending = [guard for guard in self._guarded.values() if not guard.done()]
        if pending:
            _done, late = await asyncio.wait(pending, timeout=HOLD_S)
            if late:
                log.warning("a navigation went on while %d worker guard(s) were still going in", len(late))

    async def _held(self, hold: CDPSession, event: dict[str, Any]) -> None:
        """A worker held by ``hold`` (its script not fetched yet) goes once its guard is in; never without it."""
        target = str((event.get("targetInfo") or {}).get("targetId"))
        try:
            guarded = await asyncio.wait_for(asyncio.shield(self._guard_of(target)), HOLD_S)
        except TimeoutError:
            guarded = False
        self._guarded.pop(target, None)
        if not guarded:
            log.warning("a worker stays held: its WebSocket guard could not be put in")
            return
        with contextlib.suppress(PlaywrightError):
            await hold.send("Target.detachFromTarget", {"sessionId": event.get("sessionId")})

    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def reaim(self) -> None:
        for tap in list(self.taps):
            with contextlib.suppress(TapGone, PlaywrightError):
                await tap.enable()

    def orphans(self) -> set[str]:
        return {key for tap in self.taps for key in tap.orphans}


_REFUSING: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
_WIRED: weakref.WeakKeyDictionary[Page, PageWire] = weakref.WeakKeyDictionary()


async def workers_guarded(page: Page) -> None:
    """Before browserops navigates ``page`` itself: wait until its held workers have their guards. A navigation
    that makes no request (``about:blank``) never reaches the tap that holds the page's own navigations back."""
    wire = _WIRED.get(page)
    if wire is not None:
        await wire.guards_in()


async def refuse_shared_workers(context: BrowserContext, rule: str,
                                told: Callable[[dict[str, Any], Any], None]) -> None:
    """Every document of ``context`` from now on has a ``SharedWorker`` that throws, and tells ``told``
    (:meth:`PageWires.page_told`; once per context), through a binding Playwright keeps in every page world across
    navigations and process swaps."""
    if context in _REFUSING:
        return
    _REFUSING.add(context)
    await context.expose_binding(PAGE_BINDING, told)
    await add_standalone(context, expression(refuse_workers(["SharedWorker"], rule, binding=PAGE_BINDING)))


class PageWires:
    """The session's page wires: made for each page while the session needs them (origin rules, a run's ledger,
    a rehearsal's fence), before a page's first navigation when the session has rules."""

    def __init__(self, listener: TapListener, guard: HopGuard, pages: Callable[[], list[Page]],
                 refused: Refused) -> None:
        self.listener, self.guard, self.pages, self.refused = listener, guard, pages, refused
        self.rules: Callable[[], dict[str, Any]] = dict
        self.tapping = False  # a run's ledger or a rehearsal's fence listens to unload-time sends
        self.fenced = False  # prepare's rehearsal: a worker's WebSocket is refused whatever its address
        self.refusal_rule = "origin rules"
        self.blind: str | None = None
        self.lost: Callable[[set[str]], None] = lambda _keys: None
        self._context: BrowserContext | None = None
        self._wires: dict[Page, PageWire] = {}
        self._starting: dict[Page, asyncio.Task[None]] = {}

    def page_told(self, source: dict[str, Any], payload: Any) -> None:
        """What a page world's guard refused (:func:`refuse_shared_workers`), told through Playwright's binding."""
        with contextlib.suppress(orjson.JSONDecodeError, AttributeError, TypeError, PlaywrightError):
            report = orjson.loads(str(payload))
            page, frame = source.get("page"), source.get("frame")
            pages = self.pages()
            tab = pages.index(page) if page in pages else None
            where = "frame" if frame is not None and frame.parent_frame is not None else "page"
            if report.get("what") in REPORTS:
                self.refused(str(report.get("url", ""))[:300], str(report.get("rule", ""))[:300],
                             str(report["what"]), where, tab)

    @property
    def needed(self) -> bool:
        return self.guard.active or self.tapping or self.fenced

    def install(self, context: BrowserContext) -> None:
        self._context = context

    def watch_page(self, page: Page) -> None:
        if self.needed:
            self.ensure(page)

    def covers(self, page: Page) -> bool:
        return page in self._wires

    def ensure(self, page: Page) -> asyncio.Task[None] | None:
        if self._context is None or page.is_closed():
            return None
        task = self._starting.get(page)
        if task is None:
            task = self._starting[page] = asyncio.get_running_loop().create_task(self._start(self._context, page))
        return task

    async def _start(self, context: BrowserContext, page: Page) -> None:
        wire = PageWire(self, page)
        try:
            await wire.start(context)
        except PlaywrightError as exc:
            if not page.is_closed():
                self.blind = "the browser offers no DevTools session to watch what a page sends as it unloads"
                log.warning("no DevTools wire for a page: %s", str(exc).splitlines()[0] if str(exc) else exc)
            return
        self._wires[page] = wire
        page.once("close", self._closed)

    def _closed(self, page: Page) -> None:
        wire = self._wires.pop(page, None)
        self._starting.pop(page, None)
        if wire is not None:
            self.lost(wire.orphans())

    async def ready(self, page: Page) -> None:
        """Wait until ``page``'s wire is in place (or known impossible), making it if the session needs one."""
        task = self.ensure(page) if self.needed else None
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def tapped(self) -> None:
        """Wait until every page's wire is in place (or known not to be)."""
        if self._starting:
            await asyncio.gather(*list(self._starting.values()), return_exceptions=True)

    async def update(self) -> None:
        """The session's needs changed (rules set, a run or a rehearsal began): wire every page, re-aim every tap."""
        if self.needed:
            for page in self.pages():
                self.ensure(page)
        await self.tapped()
        for wire in list(self._wires.values()):
            await wire.reaim()
