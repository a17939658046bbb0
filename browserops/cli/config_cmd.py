"""``browserops config``: show the effective settings and where each came from."""

from __future__ import annotations

import click

from browserops.cli.context import CliState, pass_state
from browserops.config import CONFIG_FILE_NAME, ENV_PREFIX, Settings
from browserops.privacy import digest_key_path


@click.group("config")
def config_group() -> None:
    """Inspect configuration (browserops.toml, BROWSEROPS_* env vars, flags)."""


@config_group.command("show")
@pass_state
def config_show(state: CliState) -> None:
    """Print every setting, its effective value and its source.

    \b
    Layers, later wins: default < <workspace>/browserops.toml < BROWSEROPS_<NAME> env < flags.
    Also where the workspace's digest key is: the secret every digest of typed text, request bodies and input files
    in this workspace's evidence is keyed with (made on first use, readable by you only; keep it out of bundles).

    \b
    Examples:
      browserops config show
      BROWSEROPS_MAX_STEPS=50 browserops config show
      browserops --set headless=false --json config show
    """
    loaded = state.loaded()
    values = loaded.settings.model_dump()
    key = digest_key_path(state.workspace)
    if state.json_output:
        state.emit_json({
            "config_file": str(loaded.config_file) if loaded.config_file else None,
            "digest_key": {"path": str(key), "exists": key.is_file()},
            "settings": {
                name: {
                    "value": values[name],
                    "source": loaded.sources[name],
                    "env": ENV_PREFIX + name.upper(),
                    "description": Settings.model_fields[name].description,
                }
                for name in Settings.model_fields
            },
        })
        return
    where = loaded.config_file or f"{state.workspace / CONFIG_FILE_NAME} (not present)"
    click.echo(f"# config file: {where}")
    made = "" if key.is_file() else " (made on first use)"
    click.echo(f"# digest key: {key}{made}: keys every digest of typed text, request bodies and input files")
    width = max(len(n) for n in Settings.model_fields)
    for name in Settings.model_fields:
        click.echo(f"{name:<{width}}  {values[name]!r:<28}  [{loaded.sources[name]}]")


COMMANDS = [config_group]
