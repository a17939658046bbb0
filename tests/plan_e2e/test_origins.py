"""``run`` goes nowhere its ``prepare`` did not look, and honours ``--allowed-origins``: a confirmed click that
leads (directly, through a redirect, or in a popup) to another origin loads nothing there; a navigate step to a
refused origin fails ``BROWSER_ORIGIN_BLOCKED`` naming the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import cli_json, server_state, write_steps


def _prepare_and_run(workspace: Path, site: DemoSite, steps: list[dict[str, Any]], *flags: str) -> dict[str, Any]:
    path = write_steps(workspace, "partners.yaml", {"title": "Visit the partners", "steps": steps})
    code, prepared, err = cli_json(workspace, *flags, "prepare", "--steps", str(path), "--url",
                                   site.base_url + "/origins")
    assert code in (0, 2), (prepared, err)
    code, run, err = cli_json(workspace, *flags, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    return run


def _click(name: str, role: str = "link") -> dict[str, Any]:
    return {"kind": "act", "target": {"role": role, "names": [name]}}


def test_run_refuses_origins_prepare_did_not_see(demo_site: DemoSite, workspace: Path) -> None:
    """prepare only read /origins, so a confirmed run may load nothing from the partner's origin: neither the
    redirect a link leads to nor the popup a button opens (and the page is still there for the next step)."""
    demo_site.reset()
    run = _prepare_and_run(workspace, demo_site, [
        _click("Partner site via redirect"), _click("Open partner window", role="button"), _click("Partner site"),
    ])
    assert run["runStatus"] == "complete", run
    assert [s["status"] for s in run["steps"]] == ["ok", "ok", "ok"]
    assert server_state(demo_site.base_url)["collected"] == []


def test_run_honours_allowed_origins(demo_site: DemoSite, workspace: Path) -> None:
    demo_site.reset()
    run = _prepare_and_run(workspace, demo_site, [_click("Partner site")], "--allowed-origins", demo_site.base_url)
    assert run["runStatus"] == "complete", run
    path = write_steps(workspace, "away.yaml", {"title": "Go away", "steps": [
        {"kind": "navigate", "url": demo_site.alt_url + "/collect?c=step"}]})
    code, refused, _ = cli_json(workspace, "--allowed-origins", demo_site.base_url, "prepare", "--steps", str(path),
                                "--url", demo_site.base_url + "/origins")
    assert code == 1 and refused["code"] == "BROWSER_ORIGIN_BLOCKED", refused
    assert refused["details"]["rule"] == f"allowed_origins: {demo_site.base_url}"
    assert server_state(demo_site.base_url)["collected"] == []
