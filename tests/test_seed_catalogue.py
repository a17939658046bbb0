"""The requirement's tool catalogue keeps its names: every tool the seed's list names is offered by `browserops
tools list` under that name (a client written against the list finds it).

The list is written here, not read from the requirement's file: a clean clone has only this repository."""

from __future__ import annotations

import orjson
from click.testing import CliRunner

from browserops.cli import cli
from browserops.tools.registry import get_tool

# The requirement's catalogue, in its order (navigation, numbering and search, acting, tabs and downloads, diagnosis).
REQUIREMENT_CATALOGUE = (
    "browser_navigate", "browser_wait", "browser_back", "browser_forward", "browser_reload",
    "browser_list_interactives", "browser_overlay_show", "browser_overlay_hide", "browser_find",
    "browser_focus_next", "browser_focus_prev",
    "browser_overlay_act", "browser_act_by_index", "browser_press", "browser_scroll",
    "browser_open_in_new_tab", "browser_switch_tab", "browser_click_and_wait_download", "browser_download_wait",
    "browser_upload",
    "browser_extract", "browser_screenshot", "browser_close_banners",
)


def _listed() -> tuple[list[str], list[dict[str, object]]]:
    runner = CliRunner()
    text = runner.invoke(cli, ["tools", "list"], catch_exceptions=False)
    assert text.exit_code == 0
    rows = orjson.loads(runner.invoke(cli, ["tools", "list", "--json"], catch_exceptions=False).stdout)["tools"]
    return [line.split()[0] for line in text.stdout.strip().splitlines()], rows


def test_every_tool_of_the_requirements_catalogue_is_listed_under_its_name() -> None:
    names, rows = _listed()
    assert [n for n in REQUIREMENT_CATALOGUE if n not in names] == []
    # ... as a tool of its own in the JSON listing (what MCP and the model are offered), not only as an alias.
    assert [n for n in REQUIREMENT_CATALOGUE if n not in {r["name"] for r in rows}] == []


def test_the_later_name_of_the_last_resort_act_stays_an_alias_of_the_same_tool() -> None:
    names, rows = _listed()
    assert "browser_act_by_id" in names and "browser_act_by_id" not in {r["name"] for r in rows}
    assert get_tool("browser_act_by_id") is get_tool("browser_act_by_index") is not None
