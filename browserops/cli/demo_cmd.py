"""``browserops demo-site``: serve the bundled demo site used by the README, tests and benchmarks."""

from __future__ import annotations

import click

from browserops.cli.context import CliState, pass_state


@click.command("demo-site")
@click.option("--port", type=int, default=8765, show_default=True, help="Port of the main site on 127.0.0.1.")
@click.option("--alt-port", type=int, default=None,
              help="Port of the second origin (cross-origin iframe). Default: PORT+1.")
@pass_state
def demo_site(state: CliState, port: int, alt_port: int | None) -> None:
    """Serve the bundled demo site on 127.0.0.1 until interrupted.

    \b
    Pages: / (search), /login, /expense (the business form), /expenses, /pay, /statements (CSV, PDF),
    /frames, /shadow, /spa, /popup, /slow, /large?n=5000, /scroll, /dialogs, /upload, /banners/...

    \b
    Examples:
      browserops demo-site                  # http://127.0.0.1:8765 (+ 8766 for the cross-origin frame)
      browserops demo-site --port 9000
    """
    from browserops.demo_site import DemoSite, serve_forever

    state.loaded()

    def ready(site: DemoSite) -> None:
        state.progress(f"Demo site on {site.base_url} (second origin {site.alt_url}); Ctrl+C to stop.")

    serve_forever("127.0.0.1", port, alt_port, on_ready=ready)


COMMANDS = [demo_site]
