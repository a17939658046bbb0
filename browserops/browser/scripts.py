"""Our page-side JavaScript (``browser/js/*.js``), shipped as package data and evaluated with Playwright.

Each entry script defines ``main``; the functions here wrap ``lib.js`` + the entry into one function
expression, so an evaluate never depends on anything left on the page (a page cannot swap our helpers
between calls). No caller-supplied JavaScript ever goes through here: arguments travel as JSON.

Run them with :func:`run_page`, :func:`run_document` and :func:`run_located`, which pass the arguments as one
JSON string and get the result back as one: Playwright's own value serialisation (a tagged tree built in the
page and rebuilt in Python value by value) costs several milliseconds for a listing-sized result, a string
next to nothing — and every listing, hit test and description crosses that bridge. ``page_script`` and
friends give the plain wrappers (arguments and result as Playwright values) for ``frame.evaluate``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import orjson
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame


@cache
def _source(name: str) -> str:
    return resources.files("browserops.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")


def _body(name: str) -> str:
    return f"{_source('lib')}\n{_source(name)}\n"


@cache
def page_script(name: str) -> str:
    """``(args) => main(args)`` for ``frame.evaluate(script, args)``."""
    return f"(args) => {{\n{_body(name)}return main(args);\n}}"


@cache
def element_script(name: str) -> str:
    """``(el, args) => main(el, args)`` for ``locator.evaluate(script, args)``."""
    return f"(el, args) => {{\n{_body(name)}return main(el, args);\n}}"


@cache
def document_script(name: str) -> str:
    """An element script run against the frame's document itself: ``main(null, args)``."""
    return f"(args) => ({element_script(name)})(null, args)"


# JSON in, JSON out: the result (or what a returned promise resolves to) as JSON text, undefined as null.
_JSON_OUT = ("const __boJson = (v) => JSON.stringify(v === undefined ? null : v);\n"
             "return (__boR && typeof __boR.then === 'function') ? __boR.then(__boJson) : __boJson(__boR);")


@cache
def _json_script(name: str, call: str) -> str:
    return f"(__boArgs) => {{\n{_body(name)}const args = JSON.parse(__boArgs);\nconst __boR = {call};\n{_JSON_OUT}\n}}"


def _decode(raw: object) -> Any:
    if not isinstance(raw, str):
        raise PlaywrightError(f"the page script returned {type(raw).__name__}, not JSON text")
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise PlaywrightError(f"the page script returned text that is not JSON: {exc}") from exc


async def _run(frame: Frame, script: str, args: Any) -> Any:
    return _decode(await frame.evaluate(script, orjson.dumps(args).decode()))


async def run_page(frame: Frame, name: str, args: Any) -> Any:
    """``main(args)`` of page script ``js/<name>.js`` in ``frame``; its result."""
    return await _run(frame, _json_script(name, "main(args)"), args)


async def run_document(frame: Frame, name: str, args: Any) -> Any:
    """Element script ``js/<name>.js`` against the frame's document: ``main(null, args)``."""
    return await _run(frame, _json_script(name, "main(null, args)"), args)


async def run_located(frame: Frame, name: str, args: dict[str, Any]) -> Any:
    """Element script ``js/<name>.js`` on the element with blind id ``args["id"]`` in this frame (open shadow
    roots included): ``{"found": True, "r": main(el, args)}``, or ``{"found": False}`` when the frame has no
    such element. One round trip, where a locator's evaluate takes three (resolve, evaluate, dispose)."""
    return await _run(frame, _json_script(name, _LOCATED), args)


_LOCATED = ("(() => { const el = byBlindId(args.id);\n"
            "if (!el) { return { found: false }; }\n"
            "const r = main(el, args);\n"
            "return (r && typeof r.then === 'function') ? r.then((v) => ({ found: true, r: v })) : { found: true, r };"
            " })()")
