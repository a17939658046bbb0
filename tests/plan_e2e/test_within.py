"""Plans that name the container of a repeated control (``target.within``, issue #19): the Edit/Delete *in the
row of Stapler*, the Report *in @cierra's post*, Add to cart *on the Widget Mini card* — through the real CLI's
``prepare`` -> ``run --confirm`` in real Chromium on the demo site's /repeated page. The server's record of what
each control did is the proof; the rows are reordered, removed or given look-alikes between prepare and run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import bundle_of, cli_json, post, server_state, write_steps


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _orders(site: DemoSite, *items: str) -> None:
    post(site.base_url, "/__variant", {"name": "repeated_orders", "value": ",".join(items)})


def _plan(workspace: Path, site: DemoSite, *steps: dict[str, Any]) -> dict[str, Any]:
    doc = {"title": "Act on one of many", "startUrl": "/repeated", "steps": list(steps)}
    code, data, err = cli_json(workspace, "prepare", "--steps", str(write_steps(workspace, "steps.yaml", doc)),
                               "--base-url", site.base_url)
    assert code == 2, (data, err)
    return data


def _run(workspace: Path, prepared: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    code, data, _ = cli_json(workspace, "run", str(prepared["requestId"]), "--confirm",
                             str(prepared["confirmPhrase"]))
    return code, data


DELETE_STAPLER = {"kind": "submit", "title": "Delete the stapler order",
                  "target": {"role": "button", "names": ["Delete"], "within": {"role": "row", "names": ["Stapler"]}},
                  "expect": {"text": ["delete: Stapler"]}}


def test_a_reordered_table_still_acts_on_the_named_row(site: DemoSite, workspace: Path) -> None:
    prepared = _plan(workspace, site, DELETE_STAPLER)
    step = prepared["steps"][0]
    # A row is named by its first cells (as the listing's "in" reads it): the item and its quantity.
    assert step["matchedWithin"] == "Stapler 2" and step["target"] == 'button "Delete" in row "Stapler"'
    plan = orjson.loads((bundle_of(workspace, prepared["requestId"]) / "plan.json").read_bytes())
    assert plan["actions"][0]["target"]["within"] == {"role": "row", "names": ["Stapler"]}
    _orders(site, "Desk lamp", "A4 paper", "Printer toner", "Stapler")  # Stapler was row 2, now row 4
    code, ran = _run(workspace, prepared)
    assert code == 0, ran
    assert server_state(site.base_url)["repeated"] == [{"what": "delete", "owner": "Stapler"}]


def test_a_removed_row_is_site_changed_never_a_look_alike(site: DemoSite, workspace: Path) -> None:
    prepared = _plan(workspace, site, DELETE_STAPLER)
    # The stapler's row is gone; a row whose name starts the same takes its place.
    _orders(site, "Stapler refill", "Printer toner", "A4 paper")
    code, ran = _run(workspace, prepared)
    assert code != 0 and ran["code"] == "BROWSER_SITE_CHANGED", ran
    assert "Stapler" in ran["error"] and "row" in ran["error"]
    assert server_state(site.base_url)["repeated"] == []


def test_a_within_naming_several_containers_is_refused_with_the_candidates(site: DemoSite, workspace: Path) -> None:
    _orders(site, "Printer toner", "Stapler refill", "Stapler")
    code, data, _ = cli_json(workspace, "prepare", "--steps", str(write_steps(
        workspace, "vague.yaml", {"title": "Too vague", "startUrl": "/repeated", "steps": [DELETE_STAPLER]})),
        "--base-url", site.base_url)
    assert code != 0 and data["code"] == "BROWSER_TARGET_AMBIGUOUS", data
    assert "ambiguous" in data["error"]
    assert 'in row "Stapler refill"' in data["error"] and 'in row "Stapler 2"' in data["error"]
    # The container's full name, as the listing reads it, is exact: it wins over the names it starts.
    exact = {**DELETE_STAPLER, "target": {"role": "button", "names": ["Delete"],
                                           "within": {"role": "row", "names": ["Stapler 2"]}}}
    prepared = _plan(workspace, site, exact)
    assert prepared["steps"][0]["matchedWithin"] == "Stapler 2"
    code, ran = _run(workspace, prepared)
    assert code == 0, ran
    assert server_state(site.base_url)["repeated"] == [{"what": "delete", "owner": "Stapler"}]


def test_feed_cards_and_chips_by_their_containers(site: DemoSite, workspace: Path) -> None:
    prepared = _plan(
        workspace, site,
        {"kind": "act", "title": "Open the menu of @cierra's post",
         "target": {"role": "button", "names": ["more"], "within": {"role": "article", "names": ["@cierra"]}}},
        {"kind": "act", "title": "Report it",
         "target": {"role": "menuitem", "names": ["Report"], "within": {"role": "article", "names": ["@cierra"]}},
         "expect": {"text": ["report: the post by @cierra"]}},
        {"kind": "act", "title": "Buy a Widget Mini",
         "target": {"role": "button", "names": ["Add to cart"], "within": {"role": "group", "names": ["Widget Mini"]}},
         "expect": {"text": ["add: Widget Mini"]}},
        {"kind": "act", "title": "Drop the Rust skill",
         "target": {"role": "button", "names": ["Remove"], "within": {"role": "group", "names": ["Rust"]}},
         "expect": {"text": ["remove: Rust"]}},
    )
    assert prepared["steps"][0]["matchedWithin"] == "@cierra 5h"
    code, ran = _run(workspace, prepared)
    assert code == 0, ran
    assert server_state(site.base_url)["repeated"] == [
        {"what": "report", "owner": "the post by @cierra"}, {"what": "add", "owner": "Widget Mini"},
        {"what": "remove", "owner": "Rust"}]
