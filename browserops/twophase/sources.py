"""Where a plan comes from, for every front door: a domain pack and its input, or a step file with optional input
values — read from files (the CLI) or given as data (the MCP tools) — and the absolute URL prepare starts at."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import Pack, PackContext, PackInput, get_pack, read_input_file
from browserops.plan import Action, PlanSource, Step, StepFile, load_steps, parse_steps
from browserops.plan.prepare.prepare import PlanRequest
from browserops.privacy import keyed_digest


@dataclass
class Source:
    """A plan request without its start URL yet, and the start URL its source declares (maybe a path)."""

    title: str
    start: str | None
    request: PlanRequest


def read_input(path: Path) -> tuple[dict[str, Any], str]:
    """A YAML/JSON input file as a mapping, and the SHA-256 of its bytes."""
    data, digest = read_input_file(path)
    if not isinstance(data, dict):
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{path}: input must be a mapping of keys to values.")
    return data, digest


def input_digest(data: Mapping[str, Any]) -> str:
    """The keyed digest of input given as data (sorted-key JSON), where a file's is the digest of its bytes: run
    refuses sensitive values from input that differs from what prepare was given. Keyed (``privacy.keyed_digest``),
    as the input holds the sensitive values a plain hash would let anyone holding the plan test guesses of."""
    return keyed_digest(orjson.dumps(dict(data), option=orjson.OPT_SORT_KEYS, default=str))


def _absolute_uploads(steps: list[Step], folder: Path) -> list[Step]:
    """Relative upload paths in a step file mean: next to the step file (or, for step text, in the workspace)."""
    out = []
    for step in steps:
        if step.action is Action.UPLOAD and step.value is not None and not isinstance(step.value, bool):
            files = [step.value] if isinstance(step.value, str) else list(step.value)
            fixed = [str(p if Path(p).expanduser().is_absolute() else folder / p) for p in files]
            step = step.model_copy(update={"value": fixed[0] if isinstance(step.value, str) else fixed})
        out.append(step)
    return out


def _pack_source(pack: Pack, inp: PackInput, path: str | None, digest: str | None) -> Source:
    step_file = pack.build(inp)
    source = PlanSource(kind="pack", name=pack.name, path=path, input_digest=digest)
    request = PlanRequest(title=step_file.title, start_url="", steps=step_file.steps, source=source,
                          requirements=pack.requirements, inputs=inp.data.model_dump(mode="json"))
    return Source(step_file.title, step_file.start_url, request)


def _steps_source(step_file: StepFile, folder: Path, path: str | None, inputs: dict[str, Any] | None,
                  digest: str | None) -> Source:
    source = PlanSource(kind="steps", name=step_file.title, path=path, input_digest=digest)
    steps = _absolute_uploads(list(step_file.steps), folder)
    request = PlanRequest(title=step_file.title, start_url="", steps=steps, source=source, inputs=inputs)
    return Source(step_file.title, step_file.start_url, request)


def source_from_files(workspace: Path, pack: str | None, steps_file: Path | None, input_file: Path | None) -> Source:
    """``prepare --pack NAME --input FILE`` or ``prepare --steps FILE [--input FILE]``."""
    if (pack is None) == (steps_file is None):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give exactly one plan source: --pack NAME --input FILE, or "
                              "--steps FILE.")
    if pack is not None:
        if input_file is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--pack {pack} needs --input FILE (its data). "
                                  f"`browserops pack show {pack}` shows an example input.")
        the_pack = get_pack(workspace, pack)
        inp = the_pack.load_input(input_file)
        return _pack_source(the_pack, inp, str(input_file.resolve()), inp.digest)
    assert steps_file is not None
    step_file = load_steps(steps_file)
    inputs: dict[str, Any] | None = None
    digest: str | None = None
    if input_file is not None:
        inputs, digest = read_input(input_file)
    return _steps_source(step_file, steps_file.resolve().parent, str(steps_file.resolve()), inputs, digest)


def source_from_data(workspace: Path, pack: str | None, steps_text: str | None,
                     inputs: Mapping[str, Any] | None) -> Source:
    """A pack's name and its input as data, or a step file's text (YAML or JSON) with optional input values — what
    an MCP client sends. Relative file paths (uploads, a pack's receipt) resolve in the workspace; the input has no
    file, so the plan's source names none (a run is given the same data again for sensitive values)."""
    if (pack is None) == (steps_text is None):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give exactly one plan source: pack (with input), or steps "
                              "(a step file's text).")
    data = dict(inputs) if inputs is not None else None
    digest = input_digest(data) if data is not None else None
    if pack is not None:
        if data is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"pack {pack} needs input (its fields). "
                                  f"`browserops pack show {pack}` shows an example input.")
        the_pack = get_pack(workspace, pack)
        inp = the_pack.parse_input(data, PackContext(base_dir=workspace), source="input", digest=digest)
        return _pack_source(the_pack, inp, None, digest)
    assert steps_text is not None
    return _steps_source(parse_steps(steps_text, "yaml", "steps"), workspace, None, data, digest)


def start_url(declared: str | None, steps: list[Step], url: str | None, base_url: str | None) -> str:
    """The absolute start URL: ``url``, else the source's start URL (or first navigation) against ``base_url``."""
    if url:
        if not _absolute(url):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--url {url!r} must be an absolute http(s) URL.")
        return url
    declared = declared or next((s.url for s in steps if s.action is Action.NAVIGATE and s.url), None)
    if declared is None:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "The plan names no start URL: give --url URL.")
    if _absolute(declared):
        return declared
    if not base_url:
        raise BrowserOpsError(
            ErrorCode.INVALID_ARGS,
            f"The start URL {declared} is a path: give the site with --base-url http://HOST:PORT (or set base_url in "
            "browserops.toml), or a full --url.",
        )
    if not _absolute(base_url):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--base-url {base_url!r} must be an absolute http(s) URL.")
    return urllib.parse.urljoin(base_url, declared)


def _absolute(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)
