"""The parts a plan step is made of besides its verb: the model base, names, the target and the container it
is in (``within``), where a value comes from in the input data, what proves a step worked, how a dialog the step
opens is answered (``dialog``) and the keys a ``press`` step may press.

Kept apart from :mod:`browserops.plan.model.steps` (which re-exports them) so the step model stays readable.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator
from pydantic.alias_generators import to_camel

from browserops.browser.act.keys import activating as activating
from browserops.browser.act.keys import normalise_key

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class PlanModel(BaseModel):
    """Base of every plan/step model: camelCase JSON keys, unknown keys are errors (a typo is reported)."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True, frozen=False)


# The containers a step may name with ``within`` (the roles a listing's ``in_role`` reports, in a person's words):
# a landmark (navigation, complementary, search, banner, contentinfo, main) is a ``region``, an alert dialog a
# ``dialog`` and so is a popup bubble a page marks role=tooltip (a confirm popover: "the 删除 in the confirm bubble"),
# a tree item a ``listitem``, a card or box without a role of its own (named by its heading or text) a
# ``group``. :func:`container_role` maps a listing's role onto them; a plan may name a container by either.
WITHIN_ROLES: tuple[str, ...] = ("row", "listitem", "article", "group", "dialog", "region", "form", "tabpanel")
_CONTAINER_ROLES: dict[str, str] = {
    "alertdialog": "dialog", "tooltip": "dialog", "treeitem": "listitem", "generic": "group", "section": "group",
    "navigation": "region",
    "complementary": "region", "search": "region", "banner": "region", "contentinfo": "region", "main": "region",
}


def container_role(listed: str) -> str:
    """The ``within`` role of a container a listing reports as ``in_role`` (``generic`` for a card -> ``group``)."""
    role = (listed or "generic").strip().lower()
    return role if role in WITHIN_ROLES else _CONTAINER_ROLES.get(role, "group")


class Within(PlanModel):
    """The container a target is in, named as a person would: "the Edit *in the row of Printer toner*"."""

    role: str = Field(description="The container's role: " + ", ".join(WITHIN_ROLES) + " (a card or box with no "
                      "role of its own is a group; a landmark a region; an alert dialog or a popup bubble with role "
                      "tooltip, such as a confirm popover, a dialog).")
    names: list[Name] = Field(
        min_length=1, max_length=24,
        description="Candidate names of the container as the listing's `in` reads it (a row: its row header or "
        "first cells; a post, card or list item: its heading or first line); matched like target names.",
    )

    @field_validator("role")
    @classmethod
    def _role(cls, value: str) -> str:
        value = value.strip().lower()
        value = _CONTAINER_ROLES.get(value, value) if value != "generic" else value
        if value not in WITHIN_ROLES:
            raise ValueError(f"{value!r} is not a container role (use one of {', '.join(WITHIN_ROLES)})")
        return value

    def describe(self) -> str:
        return f'{self.role} "{self.names[0]}"'


# What answering a dialog may be: OK (``accept``) or Cancel (``dismiss``), as ``browser_dialog(accept=…)`` takes it.
DialogWord = Literal["accept", "dismiss"]


class DialogAnswer(PlanModel):
    """How the step answers the browser dialog (``confirm()``, ``alert()``, "leave this page?") its action opens:
    said in advance, shown in the diff and confirmed with the plan. ``dialog: accept`` is short for
    ``{answer: accept}``."""

    answer: DialogWord = Field(description="accept presses OK (Leave for a leave-page dialog); dismiss presses "
                               "Cancel.")
    text: list[Name] = Field(
        default_factory=list, max_length=24,
        description="The dialog must say one of these (matched like names, as part of its message); another "
        "dialog is cancelled and the run stops.",
    )

    @model_validator(mode="before")
    @classmethod
    def _short(cls, value: Any) -> Any:
        return {"answer": value} if isinstance(value, str) else value

    def describe(self) -> str:
        said = f" if it says {self.text[0]!r}" if self.text else ""
        return f"{'OK' if self.answer == 'accept' else 'Cancel'} to its dialog{said}"


def check_key(value: str) -> str:
    """A ``press`` step's key as Playwright names it (``esc`` -> ``Escape``, ``ctrl+a`` -> ``Control+a``)."""
    return normalise_key(value)


ROLE_PATTERN = re.compile(r"^[a-z][a-z-]{0,31}$")
FIELD_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
SAFE_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,119}$")


class SemanticTarget(PlanModel):
    """An element named the way a person would name it. No selectors, no scripts."""

    role: str = Field(description="ARIA role, e.g. textbox, button, link, combobox, checkbox, radio, spinbutton.")
    names: list[Name] = Field(
        default_factory=list, max_length=24,
        description="Candidate accessible names, several languages; matched case-insensitively, whitespace-normalised.",
    )
    labels: list[Name] = Field(
        default_factory=list, max_length=24,
        description="Candidate label / placeholder / title texts, tried when no name matches.",
    )
    frame: str | None = Field(None, max_length=200, description="Frame path as listed (e.g. 'main>1') or iframe title.")
    nth: int = Field(0, ge=0, le=999, description="Which match to take when several elements match (0 = first).")
    within: Within | None = Field(
        None, description="The container it is in (a table row, a post, a card, a dialog…) when the same control "
        "repeats: only elements in a container of that role and name match; several such containers are ambiguous.",
    )

    @field_validator("role")
    @classmethod
    def _role(cls, value: str) -> str:
        value = value.strip().lower()
        if not ROLE_PATTERN.match(value):
            raise ValueError(f"{value!r} is not an ARIA role (e.g. 'button', 'textbox', 'link')")
        return value

    @model_validator(mode="after")
    def _named(self) -> SemanticTarget:
        if not self.names and not self.labels:
            raise ValueError("a target needs at least one candidate name or label")
        return self

    def describe(self) -> str:
        first = (self.names or self.labels)[0]
        where = f" in {self.within.describe()}" if self.within is not None else ""
        return f'{self.role} "{first}"{where}'


class ValueRef(PlanModel):
    """Where a value comes from in the input data. A sensitive value stays out of plans and logs: only its
    key, and optionally its digest (so a run can tell the input changed since prepare), are recorded."""

    key: str = Field(pattern=FIELD_PATTERN.pattern, description="Key in the input data, e.g. 'password'.")
    sensitive: bool = Field(False, description="Never write the value into plan.json, events or the summary.")
    digest: str | None = Field(
        None, pattern=r"^(?:hmac-)?sha256:[0-9a-f]{16,64}$",
        description="privacy.text_digest (keyed by the workspace's secret; plain SHA-256 in plans prepared before) "
        "of the value seen at prepare."
    )


class Expectation(PlanModel):
    """What proves a step worked (e.g. a submit): any of these texts on the page, and/or a URL fragment."""

    text: list[Name] = Field(default_factory=list, max_length=24, description="Any one of these texts must appear.")
    url_contains: str | None = Field(None, min_length=1, max_length=500, description="The URL must contain this.")
    timeout_ms: int = Field(10_000, ge=100, le=600_000, description="How long to wait for the proof.")

    @model_validator(mode="after")
    def _something(self) -> Expectation:
        if not self.text and self.url_contains is None:
            raise ValueError("an expectation needs 'text' or 'urlContains'")
        return self
