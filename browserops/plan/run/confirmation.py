"""What the page a submit step led to shows, kept in the run's result and the bundle: its URL, title, status
messages, its ARIA snapshot and the reference it names ("Reference: EXP-0001")."""

from __future__ import annotations

from typing import Any

from browserops.evidence import BundleWriter
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.pages import PageSeen, snapshot_into
from browserops.plan.model.document import PlanAction
from browserops.plan.run.reference import find_reference
from browserops.privacy import mask_pii


async def confirmation_page(tools: GuardedTools, writer: BundleWriter, a: PlanAction,
                            seen: PageSeen) -> tuple[dict[str, Any], str | None]:
    """What the page a submit step led to shows: (the run's ``confirmation``: its URL, title, status messages and
    the ARIA snapshot kept in the bundle; the reference it names, if any)."""
    summary = await tools.need("browser_extract", {"mode": "summary"})
    seen.update(summary)
    rel, _ = await snapshot_into(tools, writer, a.number, f"after-{a.label()}")
    messages = [mask_pii(str(m))[:200] for m in summary.get("messages") or []]
    reference = find_reference(messages + [str(h[1]) for h in summary.get("headings") or [] if len(h) > 1])
    out: dict[str, Any] = {"step": a.number, "url": mask_pii(seen.url), "title": seen.title, "messages": messages,
                           "snapshot": rel}
    if reference:
        out["reference"] = reference
    return out, reference
