"""summary.md: the bundle told for a person — what was asked, who confirmed it, what each step did.

Rendered with jinja2 from the bundle's own files (bundle.json, plan.json as plain data, events.jsonl), so
``evidence show`` can re-render it for a bundle whose writer died. Page-derived text (titles, URLs, values) is
untrusted: the ``md`` filter escapes Markdown and HTML so it cannot inject links, images or markup.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import jinja2

from browserops.evidence import layout
from browserops.evidence.events import StepEvent

if TYPE_CHECKING:
    from browserops.evidence.models import BundleInfo

# Enough to stop emphasis, code, links, images, HTML and table breaks inside a line (values never start a line).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>!|~&])")
_SIDE_EFFECT_ORDER = ["read-only", "export", "local-write", "browser-act"]


def md(value: Any) -> str:
    """Untrusted text as inert Markdown: one line, specials backslash-escaped, at most 200 characters."""
    if value is None:
        return ""
    text = " ".join(str(value).split())
    if len(text) > 200:
        text = text[:199] + "…"
    return _MD_SPECIAL.sub(r"\\\1", text)


def code(value: Any) -> str:
    text = " ".join(str(value).split()).replace("`", "'")
    return f"`{text}`"


def link(path: str) -> str:
    return f"[{md(path)}]({quote(path)})"


def when(value: dt.datetime | None) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if value else "—"


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("browserops.evidence", "templates"),
    autoescape=False,  # Markdown, not HTML: untrusted values go through the md filter instead
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=False,
)
_ENV.filters.update(md=md, code=code, link=link, when=when)


def _target_text(action: Mapping[str, Any]) -> str:
    target = action.get("target")
    if isinstance(target, Mapping):
        names = list(target.get("names") or []) + list(target.get("labels") or [])
        return f"{target.get('role', '')} \"{names[0] if names else ''}\""
    return str(action.get("url") or "")


def _source_line(plan: Mapping[str, Any]) -> str:
    source = plan.get("source") if isinstance(plan.get("source"), Mapping) else {}
    assert isinstance(source, Mapping)
    kind = source.get("kind", "?")
    line = f"{kind} {source.get('name') or ''}".strip()
    if source.get("path"):
        line += f" ({source['path']})"
    if source.get("inputDigest"):
        line += f", input sha256 {str(source['inputDigest'])[:12]}…"
    return line


def _agent_section(events: Sequence[StepEvent]) -> dict[str, Any] | None:
    """For agent runs: the goal (length and digest only), how it ended, and what the gate did."""
    start = next((e for e in events if e.kind == "agent_start"), None)
    if start is None:
        return None
    end = next((e for e in reversed(events) if e.kind == "agent_end"), None)
    steps = [e for e in events if e.kind == "agent" and e.agent is not None]
    gate: dict[str, int] = {}
    for e in steps:
        if e.agent is not None and e.agent.policy is not None and e.agent.policy.outcome != "allowed":
            gate[e.agent.policy.outcome] = gate.get(e.agent.policy.outcome, 0) + 1
    return {
        "goal": start.note or "",
        "outcome": (end.note or "") if end else "still running, or stopped before it finished",
        "iterations": max((e.agent.iteration for e in steps if e.agent is not None), default=0),
        "tool_steps": sum(1 for e in steps if e.tool and not e.tool.startswith("assistant_") and e.status != "skipped"),
        "gate": ", ".join(f"{n} {k}" for k, n in sorted(gate.items())) or "every action was allowed",
    }


def render_summary(
    info: BundleInfo,
    plan: Mapping[str, Any] | None,
    events: Sequence[StepEvent],
    files: Sequence[str],
    problems: Sequence[str] = (),
    *,
    hide_phrase: bool = False,
) -> str:
    """The bundle as markdown. ``hide_phrase``: say that a run was confirmed with a phrase without quoting it (the MCP
    door, whose caller is a model that must never hold a plan's phrase)."""
    actions: list[dict[str, Any]] = []
    effects: list[str] = []
    confirm_steps: list[int] = []
    if plan:
        for raw in plan.get("actions") or []:
            if isinstance(raw, Mapping):
                actions.append({
                    "number": raw.get("number"), "kind": raw.get("kind"), "action": raw.get("action"),
                    "target": _target_text(raw), "sideEffect": raw.get("sideEffect"),
                })
        present = {a["sideEffect"] for a in actions}
        effects = [e for e in _SIDE_EFFECT_ORDER if e in present] or ["none"]
        side = plan.get("sideEffects")
        confirm_steps = list(side.get("confirmSteps") or []) if isinstance(side, Mapping) else []
    attempts = [
        {**a.model_dump(), "events": [e for e in events if e.attempt == a.number]} for a in info.attempts
    ]
    return _ENV.get_template("summary.md.j2").render(
        info=info,
        plan=plan,
        actions=actions,
        effects=effects,
        confirm_steps=confirm_steps,
        source_line=_source_line(plan) if plan else "",
        diff=plan.get("diff") if plan else None,
        requirements=plan.get("requirements") if plan else [],
        attempts=attempts,
        agent=_agent_section(events),
        failures=[e for e in events if e.status == "error"],
        skipped=[e for e in events if e.status == "skipped"],
        problems=list(problems),
        hide_phrase=hide_phrase,
        files=[f for f in files if f != layout.MANIFEST_FILE],
        manifest=layout.MANIFEST_FILE,
    )
