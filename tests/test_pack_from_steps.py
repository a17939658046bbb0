"""``browserops pack new --from-steps``: the pack it writes rebuilds the step file it came from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pydantic import ValidationError

from browserops.cli import cli
from browserops.packs import validate_pack_dir
from browserops.plan.model.loader import load_steps
from browserops.plan.steps import Step

STEPS = {
    "title": "Hand-written form",
    "startUrl": "http://127.0.0.1:9/form?lang=en",
    "steps": [
        {"kind": "fill", "field": "amount", "action": "type",
         "target": {"role": "spinbutton", "names": ["Amount", "Сумма"], "nth": 1}, "valueRef": {"key": "amount"}},
        {"kind": "fill", "field": "category", "action": "select", "target": {"role": "combobox", "names": ["Category"]},
         "valueRef": {"key": "category"}, "options": ["Travel", "Meals", "Meals"]},
        {"kind": "fill", "field": "billable", "action": "check",
         "target": {"role": "checkbox", "names": ["Billable"], "frame": "main>1"}, "valueRef": {"key": "billable"}},
        {"kind": "fill", "field": "when", "target": {"role": "textbox", "names": ["Date"]},
         "valueRef": {"key": "when"}},
        {"kind": "fill", "field": "payment", "action": "check", "target": {"role": "radio", "names": ["Cash"]},
         "value": True, "display": "Cash", "options": ["Card", "Cash"]},
        {"kind": "fill", "field": "pin", "target": {"role": "textbox", "names": ["PIN"]},
         "valueRef": {"key": "pin", "sensitive": True}},
        {"kind": "fill", "action": "upload", "field": "receipt", "target": {"role": "button", "names": ["Receipt"]},
         "valueRef": {"key": "receipt"}},
        # A navigation the author marked as changing something keeps that class in the pack.
        {"kind": "navigate", "url": "/logout", "sideEffect": "browser-act", "title": "Log out"},
        {"kind": "act", "target": {"role": "button", "names": ["Add a very long row name " * 4]}, "optional": True},
        {"kind": "act", "title": "Edit the toner order",
         "target": {"role": "link", "names": ["Edit"], "within": {"role": "row", "names": ["Printer toner"]}}},
        {"kind": "submit", "target": {"role": "button", "names": ["Send"]}, "expect": {"text": ["Sent"]}},
        {"kind": "export", "target": {"role": "link", "names": ["CSV"]}, "saveAs": "report.csv"},
    ],
}
VALUES = {"amount": "12.50", "category": "Meals", "billable": True, "when": "2026-01-05", "pin": None,
          "receipt": "receipt.png", "payment": "Card"}


def test_the_pack_rebuilds_the_step_file(workspace: Path) -> None:
    steps_path = workspace / "form.yaml"
    steps_path.write_text(yaml.safe_dump(STEPS, allow_unicode=True), encoding="utf-8")
    (workspace / "form.input.yaml").write_text(yaml.safe_dump(VALUES), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "pack", "new", "hand_form", "--from-steps",
                                      str(steps_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "prepare --pack hand_form --input" in result.stdout
    folder = workspace / "domain_packs" / "hand_form"
    source = (folder / "pack.py").read_text(encoding="utf-8")
    for line in ("amount: Decimal", "category: Literal['Travel', 'Meals']", "billable: bool", "when: dt.date",
                 "pin: SecretStr | None", "receipt: Path | None", "START_URL = '/form?lang=en'",
                 "payment: Literal['Card', 'Cash']"):
        assert line in source, line
    # The generated module is clean under the project's own lint rules (lines, unused names, syntax).
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "E,F,W,B,UP,SIM",
                           "--line-length", "120", str(folder)], capture_output=True, text=True, check=False)
    assert lint.returncode == 0, lint.stdout

    pack = validate_pack_dir(folder)
    (workspace / "receipt.png").write_bytes(b"\x89PNG")
    built = pack.build(pack.load_input(workspace / "form.input.yaml")).steps
    original = load_steps(steps_path).steps
    assert built[0].url == "/form?lang=en" and len(built) == len(original) + 1
    for made, wanted in zip(built[1:], original, strict=True):
        ignore = {"value", "value_ref", "options", "number"}
        if made.field == "payment":
            ignore |= {"target", "display"}  # the radio the input chose
        assert made.model_dump(exclude=ignore) == wanted.model_dump(exclude=ignore)
    values = {s.field: s.value for s in built if s.field}
    assert values == {"amount": "12.50", "category": "Meals", "billable": True, "when": "2026-01-05", "pin": None,
                      "receipt": str(workspace / "receipt.png"), "payment": True}
    assert built[6].value_ref is not None and built[6].value_ref.key == "pin" and built[6].sensitive
    # The radio choice follows the input: "Card" chosen here, "Cash" when recorded.
    payment = built[5]
    assert payment.target is not None and payment.target.names == ["Card"] and payment.display == "Card"
    assert pack.example["payment"] == "Card"
    # Without the file the upload is left out; a file that is not there is an input error.
    example = pack.build(pack.example_input()).steps
    assert "receipt" not in [s.field for s in example] and len(example) == len(built) - 1


def test_a_file_that_cannot_become_a_pack_leaves_nothing_behind(workspace: Path) -> None:
    steps_path = workspace / "odd.yaml"
    steps_path.write_text(yaml.safe_dump({"title": "Odd keys", "steps": [
        {"kind": "fill", "target": {"role": "textbox", "names": ["First name"]}, "valueRef": {"key": "first-name"}},
        {"kind": "fill", "target": {"role": "textbox", "names": ["Class"]}, "valueRef": {"key": "class"}}]}))
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "pack", "new", "odd", "--from-steps",
                                      str(steps_path)], catch_exceptions=False)
    assert result.exit_code == 1 and "BROWSER_PLAN_INVALID" in result.stderr
    assert "'class', 'first-name'" in result.stderr and not (workspace / "domain_packs" / "odd").exists()


def test_keys_without_a_recorded_value_get_a_stand_in_example(workspace: Path) -> None:
    steps_path = workspace / "bare.yaml"
    steps_path.write_text(yaml.safe_dump({"title": "No values", "steps": [
        {"kind": "fill", "target": {"role": "textbox", "names": ["Name"]}, "valueRef": {"key": "name"}},
        {"kind": "fill", "action": "check", "target": {"role": "checkbox", "names": ["Agree"]},
         "valueRef": {"key": "agree"}}]}))
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "pack", "new", "bare", "--from-steps",
                                      str(steps_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "--input FILE" in result.stdout  # no values file to name
    pack = validate_pack_dir(workspace / "domain_packs" / "bare")
    assert pack.example == {"name": "<name>", "agree": False}


def test_options_belong_to_select_steps() -> None:
    target = {"role": "combobox", "names": ["Category"]}
    step = Step.model_validate({"kind": "fill", "action": "select", "target": target, "value": "Meals",
                                "options": ["Travel", "Meals"]})
    assert step.options == ["Travel", "Meals"]
    with pytest.raises(ValidationError, match="'options' belong to select steps"):
        Step.model_validate({"kind": "fill", "action": "type", "target": {"role": "textbox", "names": ["Name"]},
                             "value": "x", "options": ["a"]})
