"""What a listing is restricted to (``scope``): the viewport, one frame, or a container by blind id or name;
and the words people use for roles (``browser_find(role=…)``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import coerce_element, identify
from browserops.contract import BrowserOpsError, ErrorCode

_FRAME_LABEL = re.compile(r"^f\d+$")
_BLIND_ID = re.compile(r"^(?:f\d+)?b\d+$")

# Words people (and models) use for roles, mapped to the roles the engine reports.
ROLE_ALIASES: dict[str, tuple[str, ...]] = {
    "input": ("textbox", "searchbox", "spinbutton", "combobox"),
    "field": ("textbox", "searchbox", "spinbutton", "combobox", "listbox", "checkbox", "radio", "switch", "slider"),
    "text": ("textbox", "searchbox"),
    "textbox": ("textbox", "searchbox"),
    "textarea": ("textbox",),
    "edit": ("textbox", "searchbox", "spinbutton"),
    "search": ("searchbox", "textbox"),
    "select": ("combobox", "listbox"),
    "dropdown": ("combobox", "listbox"),
    "combo": ("combobox",),
    "list": ("listbox", "combobox"),
    "check": ("checkbox", "switch"),
    "checkbox": ("checkbox",),
    "toggle": ("switch", "checkbox"),
    "a": ("link",),
    "links": ("link",),
    "buttons": ("button",),
    "btn": ("button",),
    "menu item": ("menuitem", "menuitemcheckbox", "menuitemradio"),
    "menuitem": ("menuitem", "menuitemcheckbox", "menuitemradio"),
}


def expand_role(role: str | None) -> list[str]:
    if not role or not role.strip():
        return []
    key = " ".join(role.strip().lower().split())
    return list(ROLE_ALIASES.get(key, (key,)))


@dataclass
class Scope:
    """What a listing is restricted to: the viewport, one frame, or a container (by blind id or name)."""

    raw: str | None = None
    viewport: bool = False
    frame: str | None = None
    blind_id: str | None = None
    text: str | None = None

    def js(self) -> dict[str, Any] | None:
        """The page-side form (``list.js``'s ``args.scope``); None for no scope or a frame scope."""
        if self.viewport:
            return {"viewport": True}
        if self.blind_id:
            return {"id": self.blind_id}
        if self.text:
            return {"text": self.text}
        return None

    @property
    def container(self) -> bool:
        return bool(self.blind_id or self.text)


def parse_scope(session: BrowserSession, scope: str | int | None) -> Scope:
    if scope is None or (isinstance(scope, str) and not scope.strip()):
        return Scope()
    target = coerce_element(scope)
    if isinstance(target, int):
        try:
            _, blind_id = identify(session, target)
        except BrowserOpsError as exc:
            raise BrowserOpsError(
                exc.code,
                f"scope {target} is not a number of the latest listing. Use a container's name (e.g. 'dialog', "
                "'Contact details'), its element id, 'viewport' or a frame label such as 'f1'.",
            ) from exc
        return Scope(raw=str(scope), blind_id=blind_id)
    text = str(target).strip()
    if text.lower() == "viewport":
        return Scope(raw=text, viewport=True)
    if _FRAME_LABEL.match(text):
        return Scope(raw=text, frame=text)
    if _BLIND_ID.match(text):
        return Scope(raw=text, blind_id=text)
    return Scope(raw=text, text=text)


def scope_error(scope: Scope, containers: list[str]) -> BrowserOpsError:
    hint = f" Containers on this page: {', '.join(containers[:12])}." if containers else ""
    return BrowserOpsError(
        ErrorCode.ELEMENT_NOT_FOUND,
        f"Nothing on the page matches scope {scope.raw!r} (a dialog, form, region or landmark by role or name, "
        f"an element id, 'viewport' or a frame label).{hint}",
    )
