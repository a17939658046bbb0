"""Issue 22 item 3: `run --trace` masks every form a value takes on its way into the page, not only the typed
spelling — a date typed 21.11.1980 and filled as 1980-11-21, a phone number and a card number that real input
masks (IMask, Cleave.js from npm) format while typing and the form posts as bare digits, and an option chosen by
typing part of its name (its label and the value the form sends). Checked by searching every string of the
trace for each form."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from browserops.demo_site.zoo_site import ZooSite
from tests.plan_e2e.helpers import cli_json, write_steps
from tests.plan_e2e.test_trace import _strings

TYPED = {"dob": "21.11.1980", "phone": "+1 (555) 123-4567", "card": "4111 1111 1111 1111", "country": "Germ"}
# What the page makes of them: the date input's value, the masks' unformatted digits the form posts, the option.
TRANSFORMED = ["1980-11-21", "15551234567", "4111111111111111", "Germany", "DEU"]


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


def _fill(field: str, name: str, action: str = "type", role: str = "textbox") -> dict[str, object]:
    return {"kind": "fill", "action": action, "field": field, "target": {"role": role, "names": [name]},
            "value": TYPED[field]}


def test_run_trace_masks_converted_formatted_and_chosen_forms(zoo: ZooSite, workspace: Path) -> None:
    steps = write_steps(workspace, "details.yaml", {"title": "Send contact details", "steps": [
        _fill("dob", "Date of birth"), _fill("phone", "Phone"), _fill("card", "Card number"),
        _fill("country", "Country", action="select", role="combobox"),
        {"kind": "submit", "target": {"role": "button", "names": ["Review details"]},
         "expect": {"text": ["Form received"]}},
    ]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("masks"))
    assert code == 2, (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                              "--trace")
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    with zipfile.ZipFile(Path(run["bundle"]) / "trace.zip") as archive:
        contents = {name: archive.read(name) for name in archive.namelist()}
    texts = {name: (_strings(blob) if name.endswith((".trace", ".network", ".stacks")) else [blob.decode("latin-1")])
             for name, blob in contents.items()}
    posted = [t for found in texts.values() for t in found if "phone=" in t and "card=" in t]
    assert posted, "the trace holds the form's POST body"  # so the check below looks where the digits went
    for value in [*TYPED.values(), *TRANSFORMED]:
        spellings = {value, quote_plus(value)}
        leaks = sorted({name for name, found in texts.items() for text in found for s in spellings if s in text})
        assert leaks == [], f"{value!r} is in {leaks}"
