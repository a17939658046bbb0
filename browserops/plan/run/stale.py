"""The staleness check of a run (part of :class:`~browserops.plan.run.executor.RunPhase`): before the first
step that changes a page, every target the page's steps need is there and every field the diff was computed from
still holds the value prepare saw; otherwise nothing on that page is touched (``BROWSER_PLAN_STALE``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.field_values import current_value
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.interpreter import StepRecord
from browserops.plan.interpret.resolve import PageListing
from browserops.plan.model.document import BrowserPlan, PlanAction, stale_fields
from browserops.plan.model.facts import what_ran
from browserops.plan.model.steps import CONFIRM_FREE, Action
from browserops.plan.run.outcome import StepOutcome

CONFIRM_FREE_VALUES = frozenset(effect.value for effect in CONFIRM_FREE)


class PageChecks:
    """The executor's page checks; the executor provides the state and :meth:`_fail`."""

    tools: GuardedTools
    plan: BrowserPlan
    keys: dict[int, str]
    checked: set[int]
    outcomes: list[StepOutcome]

    if TYPE_CHECKING:  # the executor's (it records the failed step and stops the run)
        async def _fail(self, rec: StepRecord, exc: BrowserOpsError, *, phase: str = "error",
                        step: int | None = None, label: str | None = None) -> NoReturn: ...

    def _page_steps(self, a: PlanAction) -> list[PlanAction]:
        """The steps with a target from ``a`` on that act on the same page: up to the next navigation, and no
        further than the first click (the page it leads to is checked when the run gets there)."""
        out: list[PlanAction] = []
        for b in self.plan.actions[a.number - 1:]:
            if b.action is Action.NAVIGATE:
                break
            self.checked.add(b.number)
            if b.target is not None:
                out.append(b)
            if b.activates:
                break
        return out

    async def _check_page(self, rec: StepRecord) -> PageListing:
        """Before touching a page: every target its steps need is there, and every field the diff was computed
        from still holds the value prepare saw. Otherwise nothing on the page is changed. Returns the listing
        the check used: nothing has happened on the page since, so step ``a`` resolves in it.

        A target prepare never saw (behind a click it does not make), on a page where an earlier step acts
        first, may appear only because of that step (the row a typed search shows): it is looked for when its
        step comes instead. A target prepare saw must be here before anything is touched."""
        a = rec.action
        fingerprint = self.plan.fingerprint
        values = fingerprint.values if fingerprint is not None else {}
        current: dict[str, str | None] = {}
        lang: str | None = None  # the page's language, which its fields' values are written in
        page = PageListing(self.tools)
        for n, b in enumerate(self._page_steps(a)):
            assert b.target is not None
            if b.revealed_by is not None:
                continue  # appears only after an earlier step of the page: looked for (and checked) when reached
            key = self.keys.get(b.number)
            try:
                element = await page.resolve(b.target, seen_within=b.matched_within)
            except BrowserOpsError as exc:
                if exc.code is ErrorCode.SITE_CHANGED and b.optional:
                    if key is not None:
                        current[key] = None
                    continue
                if (exc.code is ErrorCode.SITE_CHANGED and not exc.details.get("ambiguous") and n > 0
                        and b.prepared_number is None):
                    continue  # unseen by prepare and after an in-page step: resolved when its step comes
                if exc.code is ErrorCode.SITE_CHANGED:
                    exc = BrowserOpsError(exc.code, f"Step {b.number} ({b.label()}): {exc.message} {self._so_far()}",
                                          details={**exc.details, "failedStep": b.number})
                await self._fail(rec, exc, phase="error")
            if key is not None and not b.sensitive and key in values and key not in current:
                # Several steps on one field share its key: the first of them read its baseline, so it reads it now.
                current[key] = current_value(b, element) or None
                lang = lang or element.lang
        if fingerprint is None:
            return page
        await self._stale(rec, stale_fields(self.plan, {**fingerprint.values, **current}, lang))
        return page

    def _so_far(self) -> str:
        return what_ran([(o.number, o.kind) for o in self.outcomes if o.status == "ok" and o.side_effect
                         not in CONFIRM_FREE_VALUES])

    async def _stale(self, rec: StepRecord, stale: list[str]) -> None:
        if stale:
            names = ", ".join(stale)
            await self._fail(rec, BrowserOpsError(
                ErrorCode.PLAN_STALE,
                f"The page changed since prepare: {names} no longer hold{'s' if len(stale) == 1 else ''} the "
                f"value{'s' if len(stale) > 1 else ''} the diff was computed against. {self._so_far()} Re-run "
                "`browserops prepare` and review the new diff.",
                details={"fields": stale},
            ), phase="error")
