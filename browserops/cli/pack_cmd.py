"""``browserops pack``: list, show, validate and scaffold domain packs."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import click
import yaml

from browserops.cli.context import CliState, pass_state
from browserops.cli.options import json_flag
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import NAME_PATTERN, PACKS_DIR, Pack, get_pack, list_packs, validate_pack_dir
from browserops.packs.entry_points import InstalledPack
from browserops.packs.scaffold import scaffold_from_steps, scaffold_pack, values_file
from browserops.plan.model.diff import quote
from browserops.plan.steps import Step


@click.group("pack")
def pack_group() -> None:
    """Domain packs: input schema + rules + semantic targets -> plan steps.

    \b
    Examples:
      browserops pack list
      browserops pack show demo_expense
      browserops pack validate demo_expense --input my_expense.yaml
      browserops pack new my_form
    """


def _step_line(n: int, step: Step) -> str:
    kind = step.kind.value if step.kind else "?"
    if step.url:
        what = step.url
    elif step.target:
        what = step.target.describe()
    elif step.expect:
        what = "expect " + ", ".join(quote(t) for t in step.expect.text[:2])
    else:
        what = ""
    head = f"{step.field}: " if step.field else ""
    value = ""
    if step.sensitive:
        value = " = (sensitive)"
    elif step.display is not None:
        value = f" = {quote(step.display)}"
    elif isinstance(step.value, bool):
        value = f" = {str(step.value).lower()}"
    elif isinstance(step.value, str):
        value = f" = {quote(step.value)}"
    effect = step.side_effect.value if step.side_effect else "?"
    return f"  {n:>2}. {kind:<8} {head}{what}{value}  [{effect}]"


def _installed_json(installed: InstalledPack | None) -> dict[str, Any]:
    if installed is None:
        return {}
    return {"entryPoint": f"{installed.name} = {installed.module}",
            "distribution": {"name": installed.distribution, "version": installed.version}}


def _pack_json(pack: Pack) -> dict[str, Any]:
    return {
        "name": pack.name, "origin": pack.origin, "path": str(pack.path), "source": pack.source,
        **_installed_json(pack.installed), "description": pack.description,
        "startUrl": pack.start_url, "exports": pack.exports,
        "requirements": [r.model_dump(mode="json", by_alias=True) for r in pack.requirements],
    }


@pack_group.command("list")
@json_flag
@pass_state
def pack_list(state: CliState) -> None:
    """List the packs: installed Python packages' (entry-point group browserops.packs, browserops' own built-in
    packs among them) and <workspace>/domain_packs'; of the same name the workspace's wins.

    \b
    Each line says where the pack came from: its folder, or the entry point and the distribution that
    installed it. A pack that does not load is listed with its problems rather than hidden.

    \b
    Examples:
      browserops pack list
      browserops --workspace ./ws pack list --json
    """
    entries = list_packs(state.workspace)
    if state.json_output:
        state.emit_json({"packs": [
            {"name": e.name, "origin": e.origin, "path": str(e.path), "source": e.source,
             **_installed_json(e.installed), "valid": e.pack is not None,
             "description": e.pack.title if e.pack else None, "problems": e.problems}
            for e in entries
        ]})
        return
    if not entries:
        click.echo("No domain packs found (looked in the browserops.packs entry points and "
                   f"{state.workspace / PACKS_DIR}).")
        return
    width = max(len(e.name) for e in entries)
    for e in entries:
        about = e.pack.title if e.pack else "INVALID: " + "; ".join(e.problems)
        click.echo(f"{e.name:<{width}}  {e.origin:<11}  {about}")
        click.echo(f"{'':<{width}}  from {e.source}")


def _schema_rows(pack: Pack) -> list[str]:
    schema = pack.input_schema()
    required = set(schema.get("required", []))
    props = schema.get("properties", {})
    types = {name: _type_text(prop, schema) for name, prop in props.items()}
    name_w = max([len(n) for n in props] + [4])
    type_w = max([len(t) for t in types.values()] + [4])
    return [
        f"  {name:<{name_w}}  {types[name]:<{type_w}}  {'required' if name in required else 'optional':<8}"
        f"  {prop.get('description', '')}".rstrip()
        for name, prop in props.items()
    ]


def _type_text(prop: dict[str, Any], schema: dict[str, Any]) -> str:
    if "enum" in prop:
        return " | ".join(str(v) for v in prop["enum"])
    if "anyOf" in prop:
        return " | ".join(_type_text(p, schema) for p in prop["anyOf"])
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    kind = str(prop.get("type", "any"))
    if kind == "array":
        return f"list of {_type_text(prop.get('items', {}), schema)}"
    if prop.get("format"):
        return f"{kind} ({prop['format']})"
    return kind


@pack_group.command("show")
@click.argument("name")
@json_flag
@pass_state
def pack_show(state: CliState, name: str) -> None:
    """Show a pack: description, input schema, example input and the steps it builds from it.

    \b
    Examples:
      browserops pack show demo_expense
      browserops pack show demo_statements --json
    """
    pack = get_pack(state.workspace, name)
    example = pack.example_input()
    steps = pack.build(example).steps
    if state.json_output:
        state.emit_json({
            **_pack_json(pack),
            "inputSchema": pack.input_schema(),
            "example": pack.example,
            "steps": [s.model_dump(mode="json", by_alias=True, exclude_none=True) for s in steps],
        })
        return
    click.echo(f"{pack.name}  (from {pack.source})")
    click.echo("")
    click.echo(pack.description)
    click.echo("")
    click.echo(f"Start URL: {pack.start_url}")
    click.echo(f"Exports:   {', '.join(pack.exports) or 'none'}")
    if pack.requirements:
        click.echo("Requires:  " + "; ".join(f"{r.kind}: {r.detail}" for r in pack.requirements))
    click.echo("")
    click.echo("Input fields:")
    for row in _schema_rows(pack):
        click.echo(row)
    click.echo("")
    click.echo("Example input (YAML):")
    example_yaml = yaml.safe_dump(pack.example, allow_unicode=True, sort_keys=False)
    for line in example_yaml.splitlines():
        click.echo(f"  {line}")
    click.echo("")
    click.echo("Steps for the example:")
    for n, step in enumerate(steps, start=1):
        click.echo(_step_line(n, step))


def _resolve_pack_path(state: CliState, target: str) -> Path:
    path = Path(target)
    if path.exists():
        return path
    if NAME_PATTERN.match(target):
        return get_pack(state.workspace, target).path
    raise BrowserOpsError(ErrorCode.PACK_NOT_FOUND, f"{target}: no such folder and no pack of that name.")


@pack_group.command("validate")
@click.argument("target", metavar="PATH")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also validate this input file (YAML/JSON) against the pack and build its steps.")
@json_flag
@pass_state
def pack_validate(state: CliState, target: str, input_file: Path | None) -> None:
    """Check that a pack folder follows the interface and works on its EXAMPLE (and on --input).

    \b
    Checks: pack.py defines NAME, DESCRIPTION, START_URL, Input, EXAMPLE, EXPORTS, validate, build_steps;
    it imports nothing that could drive a browser; EXAMPLE is valid input; build_steps returns valid steps.
    Exit 1 with BROWSER_PACK_INVALID (or BROWSER_INPUT_INVALID for --input) naming every problem.

    \b
    Examples:
      browserops pack validate ./domain_packs/my_form
      browserops pack validate demo_expense --input expense.yaml
      browserops pack validate ./ws/domain_packs/my_form --json
    """
    path = _resolve_pack_path(state, target)
    pack = validate_pack_dir(path)
    example_steps = pack.build(pack.example_input()).steps
    out: dict[str, Any] = {"status": "ok", **_pack_json(pack), "exampleSteps": len(example_steps)}
    lines = [f"OK: {pack.name} follows the pack interface; its example builds {len(example_steps)} steps."]
    if input_file is not None:
        steps = pack.build(pack.load_input(input_file)).steps
        out["input"] = {"path": str(input_file), "steps": len(steps),
                        "confirmSteps": [n for n, s in enumerate(steps, start=1) if s.needs_confirm]}
        lines.append(f"OK: {input_file} is valid input; it builds {len(steps)} steps:")
        lines += [_step_line(n, s) for n, s in enumerate(steps, start=1)]
    if state.json_output:
        state.emit_json(out)
    else:
        click.echo("\n".join(lines))


@pack_group.command("new")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Parent folder for the pack. Default: <workspace>/domain_packs.")
@click.option("--from-steps", "from_steps", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Write the pack from this step file (e.g. one `browserops record` wrote).")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=None,
              help="With --from-steps: the recorded values (default: <steps>.input.yaml beside it).")
@json_flag
@pass_state
def pack_new(state: CliState, name: str, folder: Path | None, from_steps: Path | None,
             input_file: Path | None) -> None:
    """Create a pack (pack.py, a test, an example input) that validates as it is.

    \b
    Without --from-steps: a skeleton that searches the demo site's catalogue; replace its Input and
    build_steps with your form.
    With --from-steps FILE (a step file, e.g. from `browserops record`): the pack reproduces that file.
    Its Input has one field per recorded value, typed from what was recorded: bool (checkbox), date
    (YYYY-MM-DD), Decimal (a number), an enum (a select's options), a file (upload), SecretStr (a password
    or code: never in the pack, give it in the input file at prepare/run time), else str.

    \b
    Examples:
      browserops pack new my_form
      browserops pack new my_form --dir ./domain_packs
      # from a recording to a confirmed run:
      browserops record --url http://127.0.0.1:8765/expense --out expense.yaml
      browserops pack new my_expense --from-steps expense.yaml      # reads expense.input.yaml beside it
      browserops pack validate my_expense
      browserops prepare --pack my_expense --input expense.input.yaml --base-url http://127.0.0.1:8765
      browserops run REQUEST_ID --confirm "PHRASE"                  # both printed by prepare
    """
    if not NAME_PATTERN.match(name):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS,
                              f"{name!r} is not a pack name: use lowercase letters, digits and '_' (2-40 chars).")
    parent = folder if folder is not None else state.workspace / PACKS_DIR
    if from_steps is not None:
        created = scaffold_from_steps(parent, name, from_steps, input_file)
    else:
        created = scaffold_pack(parent, name)
    try:
        pack = validate_pack_dir(parent / name)
    except BrowserOpsError:
        shutil.rmtree(parent / name, ignore_errors=True)  # written just now: no half-made pack is left behind
        raise
    if state.json_output:
        state.emit_json({"status": "ok", "name": pack.name, "path": str(pack.path),
                         "files": [str(p) for p in created]})
        return
    click.echo(f"Created pack {name} in {pack.path}:")
    for path in created:
        click.echo(f"  {path.name}")
    if from_steps is not None:
        values = input_file or values_file(from_steps)
        click.echo("Next: review the targets' names in pack.py (add other languages), then")
        click.echo(f"  browserops prepare --pack {name} --input {values if values.is_file() else 'FILE'} "
                   "--base-url URL")
        return
    click.echo("Next: edit pack.py, then")
    click.echo(f"  browserops pack validate {pack.path}")
    click.echo(f"  uv run pytest {pack.path}")


COMMANDS = [pack_group]
