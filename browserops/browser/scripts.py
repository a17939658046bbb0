"""Our page-side JavaScript (``browser/js/*.js``), shipped as package data and evaluated with Playwright.

Each entry script defines ``main``; the functions here wrap ``lib.js`` + the entry into one function
expression, so an evaluate never depends on anything left on the page (a page cannot swap our helpers
between calls). No caller-supplied JavaScript ever goes through here: arguments travel as JSON.

Literally as JSON: run them with :func:`run_script` / :func:`run_on_locator`, which pass the arguments as
one JSON string and get the result back as one. Playwright's own value serialisation (a tagged tree built
in the page and rebuilt in Python value by value) costs several milliseconds for a listing-sized result;
a string costs next to nothing, and every listing, hit test and description crosses that bridge.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import orjson
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator

# Returns JSON text for a result or a promise of one (undefined becomes null).
_OUT = ("const __boJson = (v) => JSON.stringify(v === undefined ? null : v);\n"
        "return (__boR && typeof __boR.then === 'function') ? __boR.then(__boJson) : __boJson(__boR);")


@cache
def _source(name: str) -> str:
    return resources.files("browserops.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")


def _body(name: str) -> str:
    return f"{_source('lib')}\n{_source(name)}\n"


@cache
def page_script(name: str) -> str:
    """``main(args)`` of a page script, for :func:`run_script`."""
    return f"(__boArgs) => {{\n{_body(name)}const __boR = main(JSON.parse(__boArgs));\n{_OUT}\n}}"


@cache
def element_script(name: str) -> str:
    """``main(el, args)`` of an element script, for :func:`run_on_locator`."""
    return f"(el, __boArgs) => {{\n{_body(name)}const __boR = main(el, JSON.parse(__boArgs));\n{_OUT}\n}}"


@cache
def document_script(name: str) -> str:
    """An element script run against the frame's document itself: ``main(null, args)``, for
    :func:`run_script`."""
    return f"(__boArgs) => {{\n{_body(name)}const __boR = main(null, JSON.parse(__boArgs));\n{_OUT}\n}}"


@cache
def located_script(name: str) -> str:
    """An element script for the element with blind id ``args.id`` in this frame (open shadow roots
    included): ``{found: true, r: main(el, args)}``, or ``{found: false}`` when the frame has no such element.
    One round trip, where a locator's evaluate takes three (resolve, evaluate, dispose). For
    :func:`run_script`."""
    return (f"(__boArgs) => {{\n{_body(name)}const args = JSON.parse(__boArgs);\nconst el = byBlindId(args.id);\n"
            f"const __boR = el ? {{ found: true, r: main(el, args) }} : {{ found: false }};\n{_OUT}\n}}")


def _decode(raw: object) -> Any:
    if not isinstance(raw, str):
        raise PlaywrightError(f"the page script returned {type(raw).__name__}, not JSON text")
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise PlaywrightError(f"the page script returned text that is not JSON: {exc}") from exc


async def run_script(frame: Frame, script: str, args: Any) -> Any:
    """Evaluate one of our scripts in ``frame`` with ``args`` (JSON-able); its result."""
    return _decode(await frame.evaluate(script, orjson.dumps(args).decode()))


async def run_on_locator(locator: Locator, script: str, args: Any, *, timeout_ms: float | None = None) -> Any:
    """Evaluate one of our element scripts on the element ``locator`` points to."""
    return _decode(await locator.evaluate(script, orjson.dumps(args).decode(), timeout=timeout_ms))
