"""What an agent run leaves behind: an evidence bundle (the same writer as ``run``) with masked step events.

Every run gets a request id and a bundle: a start event (the goal by length and digest only), one
:class:`~browserops.evidence.StepEvent` per iteration with the fields of docs/design.md §6.3 in ``agent``, the
observation screenshots (numbers drawn) and error screenshots, an end event, then ``summary.md`` and the
manifest. The bundle finishes ``complete`` when the goal was reached, ``incomplete`` otherwise.

:class:`Scrubber` keeps what was typed into the page (and the user's answers) in memory only, and removes it
from every text that is recorded or emitted — page URLs and titles echo a search query, progress lines quote
what the model is about to type. Emails, phone and card numbers are masked on top (:func:`mask_pii`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

from browserops.contract import BrowserOpsError
from browserops.evidence import BundleWriter, StepEvent, new_request_id
from browserops.evidence.agent_events import AgentStep
from browserops.privacy import describe_text, mask_args, mask_pii, result_values, value_forms

log = logging.getLogger(__name__)

MIN_SCRUB = 3  # shorter typed texts ("a", "12") would blank out unrelated words
_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|«[^»\n]{1,200}»|“[^”\n]{1,200}”|„[^“\n]{1,200}“"
                     r"|`[^`\n]{1,200}`")
TYPED = "[typed]"


class Scrubber:
    """Typed texts, remembered to be removed from recorded text (never written anywhere themselves)."""

    def __init__(self) -> None:
        self._patterns: list[re.Pattern[str]] = []
        self._seen: set[str] = set()

    def add(self, text: str | None) -> None:
        if not isinstance(text, str):
            return
        text = text.strip()
        if len(text) < MIN_SCRUB or text in self._seen:
            return
        self._seen.add(text)
        # Every spelling it may take in the page (a date converted, a phone number's digits), each as is and
        # URL-encoded (a search page echoes it in its address).
        variants = {v for form in value_forms(text)
                    for v in (form, quote(form), quote_plus(form), quote(form, safe=""))}
        for variant in sorted(variants, key=len, reverse=True):
            self._patterns.append(re.compile(re.escape(variant), re.IGNORECASE))

    @property
    def values(self) -> tuple[str, ...]:
        """The texts remembered (for the run's rules, which look for them in addresses; never recorded)."""
        return tuple(self._seen)

    def add_result(self, tool_args: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        """After a call that typed or chose: what the field holds now, in the page's own spelling (an input mask's
        "+1 (555) 123-4567", a date input's "1980-11-21", the option typing picked)."""
        data = result.get("data")
        if isinstance(tool_args.get("text"), str) and isinstance(data, Mapping):
            for value in result_values(data):
                self.add(value)

    def add_args(self, args: Mapping[str, Any]) -> None:
        for key in ("text", "value", "answer"):
            value = args.get(key)
            if isinstance(value, str):
                self.add(value)

    def __call__(self, text: str | None) -> str:
        if not text:
            return ""
        for pattern in self._patterns:
            text = pattern.sub(TYPED, text)
        return mask_pii(text)

    def prose(self, text: str | None) -> str:
        """A model-written line: typed text scrubbed, quoted strings dropped (they usually quote input)."""
        return _QUOTED.sub("[quoted]", self(text))


class RunRecorder:
    """One agent run's evidence bundle. Every method is best-effort after creation: a recording failure is
    logged (without content) and never stops the run; the bundle then reads as incomplete."""

    def __init__(self, workspace: Path, *, request_id: str | None = None) -> None:
        self.request_id = request_id or new_request_id()
        self.writer = BundleWriter.create(workspace, self.request_id, phase="run")
        self.steps = 0

    @property
    def path(self) -> Path:
        return self.writer.path

    @property
    def finished(self) -> bool:
        return self.writer.finished

    def _log(self, event: StepEvent) -> None:
        if self.writer.finished:
            return
        try:
            self.writer.log_event(event)
        except (OSError, BrowserOpsError):
            log.exception("could not record an event of %s", self.request_id)

    def start(self, goal: str, *, url: str, title: str, read_only: bool, screenshots: list[str] | None = None) -> None:
        described = describe_text(goal)
        note = (f"agent run{' (read-only exploration)' if read_only else ''}; goal: {described['textLength']} "
                f"characters, {described['textDigest']}")
        event = StepEvent.begin(step=0, kind="agent_start", screenshots=list(screenshots or []))
        self._log(event.end(status="ok", page_url=url, page_title=title, note=note))

    def screenshot(self, step: int, phase: str, png: bytes | None, label: str) -> str | None:
        if not png or self.writer.finished:
            return None
        try:
            return self.writer.add_screenshot(step, phase, png, label)  # type: ignore[arg-type]
        except (OSError, BrowserOpsError):
            log.exception("could not store a screenshot of %s", self.request_id)
            return None

    def step(self, event: StepEvent) -> None:
        self.steps += 1
        self._log(event)

    def finish(self, status: str, *, message: str, url: str, title: str) -> None:
        """The end event, then summary.md and the manifest (``complete`` or ``incomplete``)."""
        if self.writer.finished:
            return
        event = StepEvent.begin(step=0, kind="agent_end")
        self._log(event.end(status="ok" if status == "complete" else "error", page_url=url, page_title=title,
                            note=message[:500]))
        try:
            self.writer.finish("complete" if status == "complete" else "incomplete",
                               reason=None if status == "complete" else message)
        except (OSError, BrowserOpsError):
            log.exception("could not finish the bundle %s", self.request_id)


def step_event(
    *,
    step: int,
    tool: str | None,
    args: Mapping[str, Any],
    side_effect: str | None,
    agent: AgentStep,
    secret: bool = False,
) -> StepEvent:
    """A step event begun now for one iteration (args masked by the model, as always; ``secret``: the call typed
    into a password, one-time-code or card-security field, whose text gets no digest at all)."""
    return StepEvent.begin(step=step, tool=tool, args=mask_args(args, secret=secret), kind="agent",
                           side_effect=side_effect, agent=agent)
