"""The one way browserops runs its page-side JavaScript (``browser/js/*.js``, shipped as package data).

A script file defines named functions; Python calls one of them by name through a typed call object
(:class:`PageCall` for ``fn(args)``, :class:`ElementCall` for ``fn(el, args)``), built by the typed wrappers
beside the scripts (``browser/js/<script>.py``), so a call and its result type are written once. Each evaluate
wraps ``lib.js`` + ``call.js`` (the glue: JSON out, find by blind id) + the script + the call into one function
expression, so it never depends on anything left on the page (a page cannot swap our helpers between calls).
No JavaScript is written here, and no caller-supplied JavaScript ever goes through here: function names are the
project's own constants, arguments travel as data. DevTools calls go through here too (:func:`run_devtools`,
the ``world_*`` builders), so every page script lives in ``js/*.js``.

Arguments go in as one JSON string and the result comes back as one: Playwright's own value serialisation (a
tagged tree built in the page and rebuilt in Python value by value) costs several milliseconds for a
listing-sized result, a string next to nothing — and every listing, hit test and description crosses here.

- :func:`call_in_frame` — ``fn(args)`` in a frame;
- :func:`run_on` — ``fn(el, args)`` on the element with a given blind id in a frame (open shadow roots
  included), in the same round trip as finding it; :class:`NotInFrame` when the frame has no such element;
- :func:`run_on_handle` — ``fn(el, args)`` on an element Playwright handed us (an iframe's element);
- :func:`expression` — ``fn(args)`` as one expression for the DevTools protocol's ``Runtime.evaluate``, for
  the scripts that need the command-line API (``getEventListeners``), which Playwright does not offer;
  :func:`run_devtools` evaluates it in a page's main world and returns its value;
- :func:`world_expression` / :func:`world_function` + :func:`world_result` — ``fn(args)`` / ``fn(el, args)``
  (with ``lib.js``, as :func:`call_in_frame`) for ``Runtime.evaluate`` / ``Runtime.callFunctionOn`` in a DevTools
  execution context of our own (the listing's isolated world, :mod:`browserops.browser.numbering.isolated`),
  and its JSON answer decoded; :func:`world_found_expression` + :func:`world_found_result` do the same for
  :func:`run_on` (by blind id), and :func:`world_element_expression` evaluates to the element itself;
- :data:`PASS_ELEMENT` + :func:`take_element` — hand an element DevTools resolved in a frame's main world
  over to Playwright as a handle (an element inside a closed shadow root, which Playwright cannot find;
  ``js/handoff.js``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Generic, TypeVar, cast

import orjson
from playwright.async_api import BrowserContext, CDPSession, ElementHandle, Frame
from playwright.async_api import Error as PlaywrightError

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)  # a call returning a Desc is a call returning a Mapping
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class PageCall(Generic[R_co]):
    """``function(args)`` of ``js/<script>.js``, returning an ``R``."""

    script: str
    function: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ElementCall(Generic[R_co]):
    """``function(el, args)`` of ``js/<script>.js`` on one element, returning an ``R``."""

    script: str
    function: str
    args: Mapping[str, Any] = field(default_factory=dict)


class NotInFrame(Exception):
    """The frame holds no element with the blind id asked for (it was removed, or lives in another frame)."""


class PageScriptError(PlaywrightError):
    """A page script answered with something that is not our JSON (a page that replaced ``JSON``): to the
    caller it is an evaluate that failed, as when the frame navigated mid-call."""


@cache
def source(name: str) -> str:
    """The text of ``js/<name>.js``."""
    return resources.files("browserops.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")


@cache
def _script(name: str, function: str, kind: str) -> str:
    """The function expression Playwright evaluates: ``(argsJson) => ...`` or ``(el, argsJson) => ...``, its
    value the result's JSON text (``call.js``)."""
    if not _NAME.match(function):  # only our own constants get here; a typo must not become code
        raise ValueError(f"not a function name: {function!r}")
    body = f"{source('lib')}\n{source('call')}\n{source(name)}\nconst args = JSON.parse(__boArgs);\n"
    if kind == "page":
        return f"(__boArgs) => {{\n{body}return __boAsJson({function}(args));\n}}"
    if kind == "found":
        return f"(__boArgs) => {{\n{body}return __boAsJson(__boOnFound({function}, args));\n}}"
    return f"(__boEl, __boArgs) => {{\n{body}return __boAsJson({function}(__boEl, args));\n}}"


@cache
def function_value(script: str, function: str) -> str:
    """``js/<script>.js``'s ``function`` (no ``lib.js``) as one expression whose value is the function itself: a
    ``functionDeclaration`` for ``Runtime.callFunctionOn``, or an evaluate Playwright calls with its argument."""
    if not _NAME.match(function):
        raise ValueError(f"not a function name: {function!r}")
    return f"(() => {{\n{source(script)}\nreturn {function};\n}})()"


def expression(call: PageCall[Any]) -> str:
    """``call`` as a standalone expression (no lib.js) for ``Runtime.evaluate``; its value is the result."""
    if not _NAME.match(call.function):
        raise ValueError(f"not a function name: {call.function!r}")
    return f"(() => {{\n{source(call.script)}\nreturn {call.function}({_json(call.args)});\n}})()"


def world_expression(call: PageCall[Any]) -> str:
    """``call`` with ``lib.js``, exactly as :func:`run` evaluates it, as one expression whose value is the
    result's JSON text (decode it with :func:`world_result`)."""
    return f"({_script(call.script, call.function, 'page')})({orjson.dumps(_json(call.args)).decode()})"


def world_reference(call: PageCall[Any]) -> str:
    """``call`` with ``lib.js`` as one expression whose value is the function's result itself, not JSON text:
    for ``Runtime.evaluate`` without ``returnByValue``, when DevTools is to get hold of page objects (elements)
    the result holds."""
    if not _NAME.match(call.function):
        raise ValueError(f"not a function name: {call.function!r}")
    return (f"(() => {{\n{source('lib')}\n{source(call.script)}\n"
            f"return {call.function}(JSON.parse({orjson.dumps(_json(call.args)).decode()}));\n}})()")


def world_function(call: ElementCall[Any]) -> tuple[str, str]:
    """``call`` (with ``lib.js``, as :func:`run_on_handle` evaluates it) as a function declaration and its
    JSON arguments, for ``Runtime.callFunctionOn`` with arguments ``[the object, the JSON text]`` on an object
    DevTools resolved into our world; its value is the result's JSON text (decode with :func:`world_result`)."""
    return _script(call.script, call.function, "element"), _json(call.args)


def world_found_expression(blind_id: str, call: ElementCall[Any]) -> str:
    """``call`` on the element with ``blind_id``, exactly as :func:`run_on` evaluates it, as one expression
    (decode its value with :func:`world_found_result`)."""
    args = _json({**call.args, "id": blind_id})
    return f"({_script(call.script, call.function, 'found')})({orjson.dumps(args).decode()})"


def world_found_result(call: ElementCall[R], blind_id: str, raw: object) -> R:
    """The decoded answer of :func:`world_found_expression`; :class:`NotInFrame` when no element has the id."""
    del call  # only carries the result type
    return cast(R, _found(_decode(raw), blind_id))


def world_element_expression(blind_id: str) -> str:
    """An expression whose value is the element with ``blind_id`` (``lib.js``'s ``byBlindId``), or null: for
    ``Runtime.evaluate`` without ``returnByValue``, to get a DevTools object of the element itself."""
    return world_reference(PageCall("handoff", "elementById", {"id": blind_id}))


def world_result(call: PageCall[R] | ElementCall[R], raw: object) -> R:
    """The decoded answer of :func:`world_expression` ``(call)``; :class:`PageScriptError` if it is not ours."""
    del call  # only carries the result type
    return cast(R, _decode(raw))


def _decode(raw: object) -> Any:
    if not isinstance(raw, str):
        raise PageScriptError(f"the page script returned {type(raw).__name__}, not JSON text")
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise PageScriptError(f"the page script returned text that is not JSON: {exc}") from exc


def _json(args: Mapping[str, Any]) -> str:
    return orjson.dumps(dict(args)).decode()


async def call_in_frame(frame: Frame, call: PageCall[R]) -> R:
    """``call.function(call.args)`` in ``frame``."""
    raw = await frame.evaluate(_script(call.script, call.function, "page"), _json(call.args))
    return cast(R, _decode(raw))


async def run_on(frame: Frame, blind_id: str, call: ElementCall[R]) -> R:
    """``call.function(el, call.args)`` on the element with ``blind_id`` in ``frame``, found and acted on in one
    round trip (a locator's evaluate takes three: resolve, evaluate, dispose). Raises :class:`NotInFrame`."""
    raw = await frame.evaluate(_script(call.script, call.function, "found"), _json({**call.args, "id": blind_id}))
    return cast(R, _found(_decode(raw), blind_id))


def _found(out: Any, blind_id: str) -> Any:
    if not isinstance(out, dict) or not out.get("found"):
        raise NotInFrame(blind_id)
    return out.get("r")


async def run_on_handle(handle: ElementHandle, call: ElementCall[R]) -> R:
    """``call.function(el, call.args)`` on an element Playwright gave us as a handle."""
    raw = await handle.evaluate(_script(call.script, call.function, "element"), _json(call.args))
    return cast(R, _decode(raw))


async def run_devtools(cdp: CDPSession, call: PageCall[R], *, command_line_api: bool = False) -> R:
    """``call`` evaluated through DevTools (``Runtime.evaluate``) in the main world of ``cdp``'s page, a returned
    promise awaited, its value by value: for what Playwright does not offer (the command-line API's
    ``getEventListeners`` with ``command_line_api``). :class:`PageScriptError` when the script throws."""
    answer = await cdp.send("Runtime.evaluate", {"expression": expression(call), "returnByValue": True,
                                                 "awaitPromise": True, "includeCommandLineAPI": command_line_api})
    if answer.get("exceptionDetails"):
        raise PageScriptError(f"{call.script}.{call.function} threw in the page")
    return cast(R, (answer.get("result") or {}).get("value"))


# For Runtime.callFunctionOn on an element DevTools resolved into the page's main world: keep it under a
# one-off random name on window, for take_element (Playwright makes handles only from its own evaluations).
PASS_ELEMENT = function_value("handoff", "passElement")


async def take_element(frame: Frame, key: str) -> ElementHandle | None:
    """The element :data:`PASS_ELEMENT` left under ``key`` in ``frame``'s main world, as a Playwright handle
    (the name is deleted in the same call); None when there is none."""
    handle = await frame.evaluate_handle(function_value("handoff", "takeElement"), key)
    element = handle.as_element()
    if element is None:
        await handle.dispose()
    return element


async def run_standalone(frame: Frame, text: str) -> None:
    """Run one of our self-contained scripts (a ``js/*.js`` file its module made ready, e.g. a listener that
    installs itself) in ``frame``; it returns nothing we read."""
    await frame.evaluate(text)


async def add_standalone(context: BrowserContext, text: str) -> None:
    """Run such a script in every document ``context`` opens from now on, before the page's own scripts."""
    await context.add_init_script(script=text)
