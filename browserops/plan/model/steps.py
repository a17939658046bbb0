"""Plan steps as people and domain packs write them: a business kind, a verb, and a *semantic* target.

A :class:`Step` never carries a CSS selector, XPath or script: it names its element the way a person (or a
screen reader) would — an ARIA role plus candidate accessible names and labels, in several languages. The
runner re-lists the page, resolves the target to an element **number** and acts through the tools.

Each verb (``action``) implies the least side-effect class it can have and the tools that perform it (the verbs'
table, :mod:`browserops.plan.model.verbs`, whose names this module re-exports). A step may *raise* its side-effect
class (e.g. a navigation that logs you out), never lower it, so no hand edit can make a click run without the confirm
phrase.
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from browserops.contract import SideEffect
from browserops.plan.model.step_parts import FIELD_PATTERN as FIELD_PATTERN
from browserops.plan.model.step_parts import ROLE_PATTERN as ROLE_PATTERN
from browserops.plan.model.step_parts import SAFE_FILE_NAME as SAFE_FILE_NAME
from browserops.plan.model.step_parts import WITHIN_ROLES as WITHIN_ROLES
from browserops.plan.model.step_parts import DialogAnswer as DialogAnswer
from browserops.plan.model.step_parts import Expectation as Expectation
from browserops.plan.model.step_parts import Name as Name
from browserops.plan.model.step_parts import PlanModel as PlanModel
from browserops.plan.model.step_parts import SemanticTarget as SemanticTarget
from browserops.plan.model.step_parts import ValueRef as ValueRef
from browserops.plan.model.step_parts import Within as Within
from browserops.plan.model.step_parts import activating, check_key
from browserops.plan.model.step_parts import container_role as container_role
from browserops.plan.model.verbs import ACTIONS as ACTIONS
from browserops.plan.model.verbs import BROWSER_ACT_KINDS, ActionSpec, action_schema, check_action, default_kind
from browserops.plan.model.verbs import CLICK_KINDS as CLICK_KINDS
from browserops.plan.model.verbs import CONFIRM_FREE as CONFIRM_FREE
from browserops.plan.model.verbs import DEFAULT_ACTION as DEFAULT_ACTION
from browserops.plan.model.verbs import DEFAULT_KIND as DEFAULT_KIND
from browserops.plan.model.verbs import SIDE_EFFECT_RANK as SIDE_EFFECT_RANK
from browserops.plan.model.verbs import Action as Action
from browserops.plan.model.verbs import Kind as Kind
from browserops.plan.model.verbs import StepActionName as StepActionName
from browserops.plan.model.verbs import action_spec as action_spec
from browserops.plan.model.verbs import word_action as word_action

StepValue = str | bool | list[str]


def absolute_url(base: str, url: str) -> str:
    """A step's URL against the plan's start URL: paths stay on the start site, absolute URLs stay as they are."""
    return urllib.parse.urljoin(base, url)


def _check_url(url: str) -> str:
    url = url.strip()
    low = url.lower()
    if low.startswith(("http://", "https://")) or url.startswith("/") or low == "about:blank":
        if any(ch in url for ch in "\r\n\t") or url.startswith("//"):
            raise ValueError("URL must not contain control characters or start with '//'")
        return url
    raise ValueError(f"{url[:80]!r} is not allowed: use an http(s) URL or a path starting with '/'")


class Step(PlanModel):
    """One step of a hand-written step file or of a domain pack's output."""

    kind: Kind | None = Field(None, description="Business meaning; derived from action when omitted.")
    action: StepActionName | None = Field(None, description="Verb; derived from kind when omitted.",
                                          json_schema_extra=action_schema)
    field: str | None = Field(
        None, pattern=FIELD_PATTERN.pattern, description="Business field name shown in the diff (fills)."
    )
    title: str | None = Field(None, max_length=200, description="Human description of the step.")
    target: SemanticTarget | None = None
    url: str | None = Field(None, max_length=2000, description="For navigate: http(s) URL or a path on the start site.")
    value: StepValue | None = Field(
        None, description="Literal value: text (type/select), a list of options (select on a field that takes "
        "several: multiple select, two-list chooser, tag input), bool (check), files (upload)."
    )
    value_ref: ValueRef | None = Field(None, description="Take the value from the input data instead.")
    display: str | None = Field(
        None, max_length=200, description="How the value reads in the diff, e.g. a radio's option label or a file name."
    )
    options: list[Name] | None = Field(
        None, max_length=200,
        description="For select: the choices the field offered when recorded (for a radio: its group's radios); "
        "`pack new --from-steps` makes them the input's enum. Not checked at run time (the page is).",
    )
    expect: Expectation | None = None
    key: str | None = Field(None, max_length=64, description="For press: the key or chord (Escape, Enter, Tab, "
                            "Shift+Tab, ArrowDown…), on the target, or on what has the focus when there is none.")
    dialog: DialogAnswer | None = Field(
        None, description="For a click or press that opens a browser dialog (confirm, alert, leave-page): answer it "
        "'accept' or 'dismiss', optionally only if it says one of 'text'. An unannounced dialog stops the run.",
    )
    save_as: str | None = Field(None, description="For downloads: file name under exports/.")
    side_effect: SideEffect | None = Field(None, description="May raise the action's class, never lower it.")
    tool: str | None = Field(None, description="Tool that performs the action; defaults from the action.")
    optional: bool = Field(False, description="A target that cannot be found is skipped instead of stopping the run.")
    sends: bool | None = Field(
        None, description="Whether the step must send its change to the server (a request other than GET/HEAD/"
        "OPTIONS, a beacon or a WebSocket message) before the run goes on: a page that says it saved but sends "
        "nothing ends the run BROWSER_NOT_SAVED. Default: true for submit and payment; other clicks are waited on "
        "only while they send, hold a leave-page guard or show an Undo offer.")
    save_wait_ms: int | None = Field(
        None, ge=0, le=600_000, description="How long a step that changes something may take to send and have "
        "its change answered (default 10000).")

    @field_validator("value", mode="before")
    @classmethod
    def _no_bare_numbers(cls, value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            raise ValueError(f"write numbers as quoted text (e.g. \"{value}\") so no digit is lost")
        return value

    @field_validator("action", mode="before")
    @classmethod
    def _action(cls, value: Any) -> Any:
        return check_action(value)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else _check_url(value)

    @field_validator("key")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        return None if value is None else check_key(value)

    @field_validator("save_as")
    @classmethod
    def _save_as(cls, value: str | None) -> str | None:
        if value is not None and (not SAFE_FILE_NAME.match(value) or ".." in value):
            raise ValueError(f"{value[:80]!r} is not a plain file name (letters, digits, '._ -'; no folders)")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Step:
        if self.kind is None and self.action is None:
            raise ValueError("a step needs 'kind' or 'action'")
        if self.action is None:
            assert self.kind is not None
            self.action = DEFAULT_ACTION[self.kind]
        if self.kind is None:
            self.kind = default_kind(self.action)
        spec = action_spec(self.action)
        where = f"{self.kind.value} step with action {self.action}"
        if self.kind not in spec.kinds:
            allowed = ", ".join(sorted(k.value for k in spec.kinds))
            raise ValueError(f"action {str(self.action)!r} cannot be kind {self.kind.value!r} (allowed: {allowed})")
        if spec.needs_target and self.target is None:
            raise ValueError(f"{where} needs a 'target'")
        if self.action is Action.NAVIGATE and self.url is None:
            raise ValueError("navigate step needs a 'url'")
        if self.action is not Action.NAVIGATE and self.url is not None:
            raise ValueError(f"'url' belongs to navigate steps, not to a {where}")
        if self.action is Action.WAIT_TEXT and self.expect is None:
            raise ValueError("wait_text step needs 'expect' (text or urlContains)")
        radio = self.action is Action.CHECK and self.target is not None and self.target.role == "radio"
        if self.options is not None and self.action is not Action.SELECT and not radio:
            raise ValueError(f"'options' belong to select steps and radio choices, not to a {where}")
        if self.save_as is not None and self.action is not Action.DOWNLOAD:
            raise ValueError(f"'saveAs' belongs to download steps, not to a {where}")
        if (self.key is None) is (self.action is Action.PRESS):
            raise ValueError("press step needs a 'key' (e.g. Escape, Enter, Tab)" if self.key is None
                             else f"'key' belongs to press steps, not to a {where}")
        if (self.sends is not None or self.save_wait_ms is not None) and self.kind not in BROWSER_ACT_KINDS:
            raise ValueError(f"'sends' and 'saveWaitMs' belong to steps that change the page, not to a {where}")
        if self.dialog is not None and self.action not in (Action.CLICK, Action.PRESS, Action.CHECK) \
                and self.kind not in CLICK_KINDS:
            raise ValueError(f"'dialog' belongs to steps that click or press, not to a {where}")
        self._check_value(spec, where)
        if self.display is not None and self.sensitive:
            raise ValueError("a sensitive value has no 'display': it is never shown")
        tools = (spec.page_tool,) if spec.page_tool and self.target is None else spec.tools
        if self.tool is None:
            self.tool = tools[0]
        elif self.tool not in tools:
            raise ValueError(f"tool {self.tool!r} cannot perform {self.action} (use {', '.join(tools)})")
        least = spec.least
        if self.kind in BROWSER_ACT_KINDS:
            least = SideEffect.BROWSER_ACT
        if self.side_effect is None:
            self.side_effect = least
        elif SIDE_EFFECT_RANK[self.side_effect] < SIDE_EFFECT_RANK[least]:
            raise ValueError(
                f"sideEffect {self.side_effect.value!r} is lower than {least.value!r}, which a {where} has"
            )
        return self

    def _check_value(self, spec: ActionSpec, where: str) -> None:
        has_value = self.value is not None or self.value_ref is not None
        if spec.value == "none":
            if has_value:
                raise ValueError(f"a {where} takes no value")
            return
        if not has_value:
            raise ValueError(f"{where} needs a 'value' or a 'valueRef'")
        if self.value_ref is not None and self.value_ref.sensitive and self.value is not None:
            raise ValueError("a sensitive value must not be written into the file: keep only 'valueRef'")
        if self.value is None:
            return
        if spec.value == "text" and not isinstance(self.value, str):
            raise ValueError(f"{where} needs a text value")
        if spec.value == "choices" and not isinstance(self.value, str) and not (
                isinstance(self.value, list) and self.value and all(isinstance(v, str) and v.strip()
                                                                    for v in self.value)):
            raise ValueError(f"{where} needs an option's text, or a non-empty list of them for a field that "
                             "takes several (e.g. [conference, q4])")
        if spec.value == "bool" and not isinstance(self.value, bool):
            raise ValueError(f"{where} needs true or false")
        if spec.value == "files":
            files = [self.value] if isinstance(self.value, str) else self.value
            if not isinstance(files, list) or not files or not all(isinstance(f, str) and f for f in files):
                raise ValueError(f"{where} needs a file path or a non-empty list of file paths")

    @property
    def sensitive(self) -> bool:
        return bool(self.value_ref and self.value_ref.sensitive)

    @property
    def activates(self) -> bool:
        """Whether the step may activate something, so what follows is another page: a click (submit, payment,
        act), or a press of Enter or Space. Escape, Tab and arrows stay on the page."""
        if self.action is Action.PRESS:
            return self.kind in CLICK_KINDS or activating(self.key)
        return self.kind in CLICK_KINDS

    @property
    def must_send(self) -> bool:
        """Whether the step's change must reach the server (``sends``; by default a submit or payment does)."""
        return self.sends if self.sends is not None else self.kind in (Kind.SUBMIT, Kind.PAYMENT)

    @property
    def needs_confirm(self) -> bool:
        return self.side_effect not in CONFIRM_FREE


class StepFile(PlanModel):
    """A hand-written plan source (YAML or JSON): ``browserops prepare --steps FILE``."""

    format_version: Literal[1] = Field(1, alias="format_version")
    title: str = Field(min_length=1, max_length=200, description="What this is for, shown in the plan and summary.")
    start_url: str | None = Field(
        None, max_length=2000, description="Where to start: http(s) URL or a path on the --base-url site."
    )
    steps: list[Step] = Field(min_length=1, max_length=500)

    @field_validator("start_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else _check_url(value)
