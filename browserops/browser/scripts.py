"""The one way browserops runs its page-side JavaScript (``browser/js/*.js``, shipped as package data).

A script file defines named functions; Python calls one of them by name through a typed call object
(:class:`PageCall` for ``fn(args)``, :class:`ElementCall` for ``fn(el, args)``), built by the typed wrappers
beside the scripts (``browser/js/<script>.py``), so a call and its result type are written once. Each evaluate
wraps the shared helpers (``lib_*.js``, :data:`LIB_PARTS`, split by concern) + ``call.js`` (the glue: JSON out,
find by blind id) + the script + the call into one function expression, so it never depends on anything left on the
page (a page cannot swap our helpers between calls).
No JavaScript is written here, and no caller-supplied JavaScript ever goes through here: function names are the
project's own constants, arguments travel as data. DevTools calls go through here too (:func:`run_devtools`,
:func:`run_in_context` and its kin), so every page script lives in ``js/*.js``.

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
- :func:`run_for_handle` — ``fn(args)`` in a frame, its result (an element) as a Playwright handle.

The same calls run in a DevTools execution context of ours (a frame's isolated world,
:mod:`browserops.browser.numbering.isolated`), built exactly as above, except that the world keeps the function
expression once sent (no page script can reach that world's globals) and later calls send only its key and the
arguments (:func:`keep_in_context` sends them ahead): :func:`run_in_context` and
:func:`run_on_in_context` (as :func:`call_in_frame` / :func:`run_on`), :func:`reference_in_context` (DevTools'
object id of the result, to hand page objects around: ``js/handoff.js``) and :func:`run_on_object`
(``fn(el, args)`` on an object DevTools holds).
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Generic, TypeVar, cast
from weakref import WeakKeyDictionary

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


# Entry scripts kept in several files (no file over 500 lines), concatenated in this order.
SCRIPT_PARTS: dict[str, tuple[str, ...]] = {"list": ("list", "list_items"), "element": ("element", "element_choices")}


@cache
def _file(name: str) -> str:
    return resources.files("browserops.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")


@cache
def source(name: str) -> str:
    """The text of the script ``name``: ``js/<name>.js``, or its parts (:data:`SCRIPT_PARTS`) one after another."""
    return "\n".join(_file(part) for part in SCRIPT_PARTS.get(name, (name,)))


# The shared helpers, in the order they are concatenated (constants first: a const is read only once it is declared).
LIB_PARTS = ("lib_base", "lib_names", "lib_states", "lib_guess", "lib_walk", "lib_containers", "lib_changes")


@cache
def lib_source() -> str:
    """The shared helpers every script runs with, as one text."""
    return "\n".join(source(part) for part in LIB_PARTS)


@cache
def _script(name: str, function: str, kind: str) -> str:
    """The function expression Playwright evaluates: ``(argsJson) => ...`` or ``(el, argsJson) => ...``, its
    value the result's JSON text (``call.js``)."""
    if not _NAME.match(function):  # only our own constants get here; a typo must not become code
        raise ValueError(f"not a function name: {function!r}")
    body = f"{lib_source()}\n{source('call')}\n{source(name)}\nconst args = JSON.parse(__boArgs);\n"
    if kind == "page":
        return f"(__boArgs) => {{\n{body}return __boAsJson({function}(args));\n}}"
    if kind == "found":
        return f"(__boArgs) => {{\n{body}return __boAsJson(__boOnFound({function}, args));\n}}"
    return f"(__boEl, __boArgs) => {{\n{body}return __boAsJson({function}(__boEl, args));\n}}"


def expression(call: PageCall[Any]) -> str:
    """``call`` as a standalone expression (no shared helpers) for ``Runtime.evaluate``; its value is the result."""
    if not _NAME.match(call.function):
        raise ValueError(f"not a function name: {call.function!r}")
    return f"(() => {{\n{source(call.script)}\nreturn {call.function}({_json(call.args)});\n}})()"


# In our isolated worlds a script's function expression is sent once per world and kept there (a Map on the
# world's own global, which no page script can reach): later calls send only its key and the arguments. A listing
# script is ~70 KB; sending, parsing and compiling it on every call cost a few ms per call under load, several
# calls per listing. Each call still runs the whole function body (the helpers' per-call state starts fresh), exactly
# as the one-off expression did. A world that does not hold the function (a new document reusing a context id)
# answers MISSING and gets it sent again.
MISSING = "\u0000bo:not-installed"
_KEPT_CONTEXTS = 64  # per DevTools session: contexts of documents long gone are forgotten


@dataclass
class _Kept:
    """Which functions each execution context of one DevTools session was sent (context id -> keys)."""

    by_context: OrderedDict[int, set[str]] = field(default_factory=OrderedDict)


_KEPT: WeakKeyDictionary[CDPSession, _Kept] = WeakKeyDictionary()


@cache
def _key(text: str) -> str:
    return orjson.dumps(hashlib.sha1(text.encode()).hexdigest()[:16]).decode()


def _kept_call(function: str, args_json: str, *, send: bool) -> str:
    """``function`` (a function expression of ours) called with ``args_json`` in ``context``: sent along and
    kept there (``send``), or by its key only, answering :data:`MISSING` when the world does not hold it."""
    key, arg = _key(function), orjson.dumps(args_json).decode()
    if send:
        return f"((globalThis.__boFns || (globalThis.__boFns = new Map())).set({key}, {function}).get({key}))({arg})"
    return f"((globalThis.__boFns && globalThis.__boFns.get({key})) || (() => {orjson.dumps(MISSING).decode()}))({arg})"


def _is_kept(cdp: CDPSession, context: int, function: str) -> bool:
    kept = _KEPT.get(cdp)
    return kept is not None and _key(function) in kept.by_context.get(context, ())


def _mark_kept(cdp: CDPSession, context: int, function: str, kept_now: bool) -> None:
    kept = _KEPT.setdefault(cdp, _Kept())
    keys = kept.by_context.setdefault(context, set())
    kept.by_context.move_to_end(context)
    (keys.add if kept_now else keys.discard)(_key(function))
    while len(kept.by_context) > _KEPT_CONTEXTS:
        kept.by_context.popitem(last=False)


def forget_context(cdp: CDPSession, context: int) -> None:
    """``context`` now names a new world (a new document; after a cross-site navigation the new renderer process
    numbers its contexts from the start again): it holds none of the functions an earlier world of that id was
    sent. Without this, the first call sends only a key, meets MISSING and goes again — one round trip more, which
    also let a check meant to run right behind a walk run before it."""
    kept = _KEPT.get(cdp)
    if kept is not None:
        kept.by_context.pop(context, None)


def _is_missing(value: Any, by_value: bool) -> bool:
    if by_value:
        return isinstance(value, str) and value == MISSING
    return isinstance(value, dict) and value.get("type") == "string" and value.get("value") == MISSING


async def _run_kept(cdp: CDPSession, context: int, function: str, args_json: str, *, by_value: bool = True,
                    group: str | None = None) -> Any:
    """``function(args_json)`` in ``context`` through :func:`_evaluate`, the function kept in the world."""
    if _is_kept(cdp, context, function):
        value = await _evaluate(cdp, _kept_call(function, args_json, send=False), context,
                                by_value=by_value, group=group)
        if not _is_missing(value, by_value):
            return value
    value = await _evaluate(cdp, _kept_call(function, args_json, send=True), context,
                            by_value=by_value, group=group)
    _mark_kept(cdp, context, function, True)
    return value


async def keep_in_context(cdp: CDPSession, context: int, calls: list[PageCall[Any]],
                          references: Sequence[PageCall[Any]] = ()) -> None:
    """Send the functions of ``calls`` (as :func:`run_in_context` runs them) and ``references`` (as
    :func:`reference_in_context` does) to ``context`` ahead of their first call, in one evaluate (nothing runs):
    a document's first listing then sends only its arguments."""
    functions = [_script(c.script, c.function, "page") for c in calls]
    functions += [_reference_function(c.script, c.function) for c in references]
    functions = [f for f in functions if not _is_kept(cdp, context, f)]
    if not functions:
        return
    table = "(globalThis.__boFns || (globalThis.__boFns = new Map()))"
    text = ";".join(f"{table}.set({_key(f)}, {f})" for f in functions) + ";0"
    await _evaluate(cdp, text, context)
    for f in functions:
        _mark_kept(cdp, context, f, True)


@cache
def _reference_body(script: str, function: str) -> str:
    """The body of ``(__boArgs) => …`` whose value is the function's result itself, not JSON text (a page
    object)."""
    if not _NAME.match(function):
        raise ValueError(f"not a function name: {function!r}")
    return f"{{\n{lib_source()}\n{source(script)}\nreturn {function}(JSON.parse(__boArgs));\n}}"


@cache
def _reference_function(script: str, function: str) -> str:
    return f"(__boArgs) => {_reference_body(script, function)}"


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


async def run_standalone(frame: Frame, text: str) -> None:
    """Run one of our self-contained scripts (a ``js/*.js`` file its module made ready, e.g. a listener that
    installs itself) in ``frame``; it returns nothing we read."""
    await frame.evaluate(text)


def init_script(call: PageCall[Any]) -> str:
    """``call`` (the shared helpers included) as a self-contained script that runs it once, for
    :func:`add_standalone`: a script that installs something per document at its start; its value is not read."""
    return f"({_script(call.script, call.function, 'page')})({orjson.dumps(_json(call.args)).decode()});"


async def add_standalone(context: BrowserContext, text: str) -> None:
    """Run such a script in every document ``context`` opens from now on, before the page's own scripts."""
    await context.add_init_script(script=text)


# ---- The same scripts in a DevTools execution context of ours (a frame's isolated world) ----


async def _evaluate(cdp: CDPSession, text: str, context: int, *, by_value: bool = True,
                    group: str | None = None) -> Any:
    """``Runtime.evaluate`` in ``context``: the value (``by_value``) or DevTools' remote object."""
    params: dict[str, Any] = {"expression": text, "contextId": context, "returnByValue": by_value,
                              "awaitPromise": True}
    if group is not None:
        params["objectGroup"] = group
    answer = await cdp.send("Runtime.evaluate", params)
    details = answer.get("exceptionDetails")
    if details:
        exc = details.get("exception") or {}
        raise PageScriptError(str(exc.get("description") or details.get("text") or "the script threw"))
    result = answer.get("result") or {}
    return result.get("value") if by_value else result


async def run_in_context(cdp: CDPSession, context: int, call: PageCall[R]) -> R:
    """``call`` in the DevTools execution context ``context`` (as :func:`call_in_frame` in a frame)."""
    raw = await _run_kept(cdp, context, _script(call.script, call.function, "page"), _json(call.args))
    return cast(R, _decode(raw))


async def run_on_in_context(cdp: CDPSession, context: int, blind_id: str, call: ElementCall[R]) -> R:
    """``call`` on the element with ``blind_id`` in context ``context`` (as :func:`run_on`); NotInFrame."""
    raw = await _run_kept(cdp, context, _script(call.script, call.function, "found"),
                          _json({**call.args, "id": blind_id}))
    return cast(R, _found(_decode(raw), blind_id))


async def reference_in_context(cdp: CDPSession, context: int, call: PageCall[Any], group: str) -> str | None:
    """DevTools' object id of what ``call`` returns in context ``context`` (kept in object ``group`` until it
    is released), None when it returns null or undefined."""
    result = await _run_kept(cdp, context, _reference_function(call.script, call.function), _json(call.args),
                             by_value=False, group=group)
    if not isinstance(result, dict) or result.get("subtype") == "null":
        return None
    object_id = result.get("objectId")
    return str(object_id) if object_id else None


async def run_on_object(cdp: CDPSession, object_id: str, call: ElementCall[R]) -> R:
    """``call`` on a page object DevTools holds (``Runtime.callFunctionOn``, in that object's world)."""
    answer = await cdp.send("Runtime.callFunctionOn", {
        "objectId": object_id, "functionDeclaration": _script(call.script, call.function, "element"),
        "returnByValue": True, "awaitPromise": True,
        "arguments": [{"objectId": object_id}, {"value": _json(call.args)}]})
    if answer.get("exceptionDetails"):
        raise PageScriptError(f"{call.script}.{call.function} threw in the page")
    return cast(R, _decode((answer.get("result") or {}).get("value")))


async def run_for_handle(frame: Frame, call: PageCall[Any]) -> ElementHandle | None:
    """``call`` in ``frame`` through Playwright, its result (an element) as a handle; None when it is none."""
    handle = await frame.evaluate_handle(_reference_function(call.script, call.function), _json(call.args))
    element = handle.as_element()
    if element is None:
        await handle.dispose()
    return element
