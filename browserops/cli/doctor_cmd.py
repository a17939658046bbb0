"""``browserops doctor``: prove that a browser can be found, started and driven."""

from __future__ import annotations

import asyncio

import click

from browserops.browser.launch.discovery import locate_chromium
from browserops.browser.launch.fonts import cjk_warning
from browserops.browser.launch.warm import closing_warm_browsers
from browserops.browser.page.probe import probe
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode, browser_mode_options


@click.command("doctor")
@click.option("--url", default=None, help="Page to open (default: the bundled demo site, started in-process).")
@click.option("--no-launch", is_flag=True, help="Only report which Chromium would be used; do not start it.")
@browser_mode_options()
@pass_state
def doctor(state: CliState, url: str | None, no_launch: bool, browser: BrowserMode) -> None:
    """Find Chromium, start it, open a page and report.

    \b
    Exit 0 when everything works; otherwise an error code such as BROWSER_NOT_INSTALLED with the fix.

    \b
    Examples:
      browserops doctor
      browserops doctor --no-launch            # discovery only (used by scripts/setup.sh)
      browserops doctor --cdp-url http://127.0.0.1:9222
      BROWSEROPS_CHROMIUM=/opt/chrome/chrome browserops doctor --json
    """
    settings = state.loaded().settings
    fonts = cjk_warning()
    warnings = {"warnings": [fonts]} if fonts else {}
    if fonts and not state.json_output:
        click.echo(f"warning: {fonts}", err=True)
    if no_launch:
        found = asyncio.run(locate_chromium(settings.chromium))
        if state.json_output:
            state.emit_json({"status": "ok", **found, **warnings})
        else:
            click.echo(f"chromium: {found['chromium']} [found via {found['chromium_source']}]")
        return
    options = browser.session_options(settings)
    if url is None:
        from browserops.demo_site import DemoSite

        with DemoSite() as site:
            report = asyncio.run(closing_warm_browsers(probe(options, site.base_url + "/")))
    else:
        report = asyncio.run(closing_warm_browsers(probe(options, url)))
    if state.json_output:
        state.emit_json({"status": "ok", **report, **warnings})
        return
    click.echo(f"browser:  {report['browser_version']} ({report['mode']} mode)")
    if report["chromium"]:
        click.echo(f"chromium: {report['chromium']} [found via {report['chromium_source']}]")
    click.echo(f"started in {report['launch_ms']} ms; opened {report['url']} — title {report['title']!r}")
    click.echo("OK")


COMMANDS = [doctor]
