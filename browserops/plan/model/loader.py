"""Read plan files (JSON) and step files (YAML or JSON) from disk or text.

These parsers face hand-edited and hostile files, so they never crash: a file is either a valid model or a
``BROWSER_PLAN_INVALID`` error naming where it is wrong (``step 3 › target.role: …``). YAML is read with the
safe loader, and anchors/aliases are refused (a few nested aliases can expand into billions of nodes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

import orjson
import yaml
from pydantic import BaseModel, ValidationError

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence.layout import PLAN_FILE, REQUEST_ID_PATTERN
from browserops.evidence.store import find_bundle
from browserops.plan.model.document import BrowserPlan
from browserops.plan.model.phrase import canonical_json
from browserops.plan.model.steps import StepFile

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_REPORTED_ERRORS = 5

M = TypeVar("M", bound=BaseModel)
Format = Literal["json", "yaml"]


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader that refuses anchors and aliases."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases (*name) are not allowed in step files", event.start_mark
            )
        return super().compose_node(parent, index)


def _invalid(source: str, problem: str) -> BrowserOpsError:
    return BrowserOpsError(ErrorCode.PLAN_INVALID, f"{source}: {problem}", details={"source": source})


def _loc(loc: tuple[int | str, ...]) -> str:
    """('steps', 2, 'target', 'role') -> 'step 3 › target.role' (people count steps from 1)."""
    parts: list[str] = []
    rest: list[str] = []
    items = list(loc)
    i = 0
    while i < len(items):
        part = items[i]
        if part in ("steps", "actions") and i + 1 < len(items) and isinstance(items[i + 1], int):
            parts.append(f"step {int(items[i + 1]) + 1}")
            i += 2
            continue
        rest.append(str(part))
        i += 1
    # Union members show up as loc parts (e.g. 'str', 'list[str]'); they say nothing to a reader.
    rest = [p for p in rest if p not in {"str", "bool", "list[str]", "function-after[_check_url(), str]"}]
    if rest:
        parts.append(".".join(rest))
    return " › ".join(parts) or "(top level)"


def describe_errors(exc: ValidationError) -> str:
    messages: list[str] = []
    seen: set[str] = set()
    for err in exc.errors():
        msg = str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
        line = f"{_loc(tuple(err['loc']))}: {msg}"
        if line not in seen:
            seen.add(line)
            messages.append(line)
    extra = len(messages) - MAX_REPORTED_ERRORS
    text = "; ".join(messages[:MAX_REPORTED_ERRORS])
    return text + (f" (and {extra} more)" if extra > 0 else "")


def parse_data(text: str | bytes, fmt: Format, source: str) -> Any:
    """Bytes or text -> plain data, or PLAN_INVALID saying why it is not JSON/YAML."""
    if len(text) > MAX_FILE_BYTES:
        raise _invalid(source, f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if fmt == "json":
            return orjson.loads(text)
        return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader subclass
    except UnicodeDecodeError as exc:
        raise _invalid(source, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except orjson.JSONDecodeError as exc:
        raise _invalid(source, f"not valid JSON: {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise _invalid(source, f"not valid YAML: {exc.problem or exc.context}{where}") from None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        raise _invalid(source, f"cannot be parsed: {type(exc).__name__}") from None


def validate_data(model: type[M], data: Any, source: str, what: str) -> M:
    if not isinstance(data, dict):
        raise _invalid(source, f"a {what} must be a mapping with keys, not {type(data).__name__}")
    if not all(isinstance(k, str) for k in data):
        raise _invalid(source, "every key must be text")
    version = data.get("format_version", 1)
    if isinstance(version, int) and not isinstance(version, bool) and version > 1:
        raise _invalid(source, f"format_version {version} is newer than this browserops understands (1): upgrade")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _invalid(source, describe_errors(exc)) from None
    except RecursionError:
        raise _invalid(source, "nested too deeply") from None


def _read(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _invalid(str(path), f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
        return path.read_bytes()
    except FileNotFoundError:
        raise BrowserOpsError(
            ErrorCode.PLAN_NOT_FOUND, f"{path}: no such file. Check the path, or `browserops evidence list`."
        ) from None
    except IsADirectoryError:
        raise _invalid(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise _invalid(str(path), f"cannot be read: {exc.strerror}") from None


def parse_plan(text: str | bytes, source: str = "plan") -> BrowserPlan:
    return validate_data(BrowserPlan, parse_data(text, "json", source), source, "plan")


def parse_steps(text: str | bytes, fmt: Format = "yaml", source: str = "steps") -> StepFile:
    return validate_data(StepFile, parse_data(text, fmt, source), source, "step file")


def load_plan(path: Path) -> BrowserPlan:
    """plan.json -> BrowserPlan. Raises only BrowserOpsError: PLAN_INVALID, or PLAN_NOT_FOUND for a missing file."""
    return parse_plan(_read(path), str(path))


def load_steps(path: Path) -> StepFile:
    """A step file (``.json`` is JSON, anything else YAML) -> StepFile; errors as :func:`load_plan`."""
    fmt: Format = "json" if path.suffix.lower() == ".json" else "yaml"
    return parse_steps(_read(path), fmt, str(path))


def resolve_plan(workspace: Path, ref: str) -> tuple[BrowserPlan, Path]:
    """``run REQUEST_ID|PLAN``: the plan and its bundle folder, both in this workspace.

    A request id finds the bundle's plan.json. A path must hold the very plan its bundle holds (same
    canonical content), so the bundle always records the plan that ran. A plan prepared in another workspace is
    refused: a workspace never uses another's artifacts.
    """
    workspace = workspace.resolve()
    if REQUEST_ID_PATTERN.match(ref):
        try:
            bundle = find_bundle(workspace, ref)
        except BrowserOpsError as exc:
            raise BrowserOpsError(ErrorCode.PLAN_NOT_FOUND, exc.message) from None
        return load_plan(bundle / PLAN_FILE), bundle
    plan = load_plan(Path(ref))
    if plan.workspace != str(workspace):
        raise BrowserOpsError(
            ErrorCode.PLAN_NOT_FOUND,
            f"{ref}: this plan was prepared in workspace {plan.workspace}, not {workspace}. "
            "Run it there, or run `browserops prepare` in this workspace.",
        )
    try:
        bundle = find_bundle(workspace, plan.request_id)
    except BrowserOpsError:
        raise BrowserOpsError(
            ErrorCode.PLAN_NOT_FOUND,
            f"{ref}: no evidence bundle {plan.request_id} in {workspace}. Run `browserops prepare` again.",
        ) from None
    if canonical_json(load_plan(bundle / PLAN_FILE)) != canonical_json(plan):
        raise _invalid(ref, f"differs from the plan in its bundle {plan.request_id}; run the bundle's plan "
                            "(by request id) or prepare again")
    return plan, bundle
