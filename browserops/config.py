"""One settings model, read in layers: defaults < ``browserops.toml`` < ``BROWSEROPS_*`` env < CLI flags.

``load_settings`` returns the effective :class:`Settings` and, for every field, the layer it came from,
so ``browserops config show`` can say *why* a value is what it is.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.origins import parse_pattern, split_list

CONFIG_FILE_NAME = "browserops.toml"
ENV_PREFIX = "BROWSEROPS_"
DEFAULT_MODEL = "claude-sonnet-5-5"  # the current Sonnet; 4-5 is deprecated (anthropic SDK 2.12)

Source = Literal["default", "file", "env", "flag"]


class Settings(BaseModel):
    """Every tunable of browserops. Field descriptions are shown by ``config show --json``."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # Logging
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "WARNING", description="Python logging level for browserops loggers."
    )
    # Browser
    headless: bool = Field(True, description="Launch Chromium headless.")
    chromium: str | None = Field(
        None, description="Path of a Chromium/Chrome binary; overrides discovery (env BROWSEROPS_CHROMIUM)."
    )
    browser_reuse: bool = Field(
        False, description="Share one launched Chromium among the browser sessions of one process, each in a fresh "
        "context (a server or a program running many phases starts it once; a crash ends them all). Persistent "
        "profiles, --cdp-url and --ws-endpoint never share.",
    )
    viewport_width: int = Field(1280, ge=320, le=7680, description="Viewport width in CSS pixels.")
    viewport_height: int = Field(800, ge=240, le=4320, description="Viewport height in CSS pixels.")
    # Timing and limits
    step_pause_ms: int = Field(
        0, ge=0, le=60_000, description="Fixed pause after each agent step (seed default 4000; 0 = wait smart)."
    )
    dom_quiet_ms: int = Field(250, ge=20, le=10_000, description="Mutation-free window that counts as settled.")
    settle_quiet_ms: int = Field(
        100, ge=20, le=10_000,
        description="Agent: after an action, wait until no request is in flight and the DOM was quiet this long.",
    )
    settle_timeout_ms: int = Field(
        1500, ge=100, le=60_000, description="Agent: the longest wait for a page to settle after an action."
    )
    tool_timeout_ms: int = Field(15_000, ge=100, le=600_000, description="Default timeout of one tool call.")
    navigation_timeout_ms: int = Field(30_000, ge=100, le=600_000, description="Timeout of a navigation.")
    max_steps: int = Field(20, ge=1, le=1000, description="Agent iteration limit per run.")
    max_wall_time_s: float = Field(600.0, gt=0, description="Agent wall-time limit per run, seconds.")
    max_llm_calls: int = Field(60, ge=1, description="LLM call limit per agent run (retries included).")
    chat_steps_per_message: int = Field(10, ge=1, le=100, description="Chat: tool steps before a report.")
    list_limit: int = Field(40, ge=1, le=5000, description="Default number of items per element listing.")
    # LLM
    model: str = Field(DEFAULT_MODEL, description="Anthropic model id used by the agent.")
    llm_max_tokens: int = Field(1024, ge=64, le=64_000, description="max_tokens per LLM response.")
    llm_timeout_s: float = Field(60.0, gt=0, description="Timeout of one LLM request, seconds.")
    llm_max_retries: int = Field(4, ge=0, le=10, description="Retries on 429/5xx/overloaded, with backoff.")
    vision: bool = Field(True, description="Send the numbered screenshot to the model as an image.")
    fast_screenshots: bool = Field(
        True, description="Viewport screenshots straight from Chromium with its fast PNG encoder (same pixels, "
        "lossless, about half the time; larger files, and the text caret is not hidden). False: Playwright's "
        "page.screenshot.",
    )
    # Files
    screenshots_dir: str = Field(
        "artifacts/screenshots", description="Where ad-hoc screenshots go (relative to the workspace)."
    )
    downloads_dir: str = Field(
        "artifacts/downloads", description="Where downloads go (relative to the workspace)."
    )
    download_conflict: Literal["rename", "overwrite"] = Field(
        "rename", description="What to do when a downloaded file name already exists."
    )
    # Plans
    base_url: str | None = Field(
        None, description="Site that relative plan URLs (a pack's START_URL such as /expense) resolve against; "
        "`prepare --base-url` overrides it."
    )
    login_wait_s: int = Field(
        300, ge=0, le=3600, description="prepare/run in a headed browser: how long to wait for you to log in "
        "by hand when the site shows a login page (headless never waits)."
    )
    # Banners (docs/design.md §12)
    banners_auto_close: bool = Field(True, description="Close cookie/consent overlays after page-changing actions.")
    banners_max_passes: int = Field(3, ge=1, le=10, description="Passes of the banner closer per trigger.")
    banners_total_budget_ms: int = Field(2500, ge=0, le=30_000, description="Total banner-closing budget.")
    banners_pass_budget_ms: int = Field(800, ge=0, le=30_000, description="Budget of one banner pass.")
    lane_backend: str = Field(
        "file", pattern=r"^(file|rediss?://\S+)$",
        description="Where the workspace lane lives: 'file' (an OS file lock, one machine) or "
                    "'redis://host:port/db' (a Redis lock with a lease, for runners on several machines).")
    lane_lease_s: float = Field(
        30.0, ge=0.5, le=3600,
        description="Redis lane: lease length in seconds; renewed every third of it while the run lives. A runner "
                    "that cannot renew in time (frozen, cut off) stops before its next acting step.")
    # Origins (browserops/origins.py): which sites a task may load, in every tab and frame
    allowed_origins: list[str] = Field(
        default_factory=list, description="Origins pages may be loaded from (https://example.com, *.example.com, "
        "localhost:8000); empty = any. Env/--set: comma-separated.",
    )
    blocked_origins: list[str] = Field(
        default_factory=list, description="Origins never loaded, whatever allowed_origins says (same patterns).",
    )

    @field_validator("allowed_origins", "blocked_origins", mode="before")
    @classmethod
    def _origin_list(cls, value: Any) -> Any:
        return split_list(value) if isinstance(value, str) else value

    @field_validator("allowed_origins", "blocked_origins")
    @classmethod
    def _valid_origins(cls, value: list[str]) -> list[str]:
        for pattern in value:
            parse_pattern(pattern)  # ValueError -> a validation error naming the pattern
        return value


@dataclass
class LoadedSettings:
    settings: Settings
    sources: dict[str, Source] = field(default_factory=dict)
    config_file: Path | None = None


def _coerce_env(name: str, raw: str) -> Any:
    """Env vars are strings; pydantic coerces numbers, but booleans need the usual spellings."""
    annotation = Settings.model_fields[name].annotation
    if annotation is bool:
        low = raw.strip().lower()
        if low in {"1", "true", "yes", "on"}:
            return True
        if low in {"0", "false", "no", "off"}:
            return False
    if raw == "" and name == "chromium":
        return None
    return raw


def _read_file(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BrowserOpsError(
            ErrorCode.CONFIG_INVALID,
            f"Cannot read {path}: {exc}. Fix the TOML syntax or remove the file.",
        ) from exc
    # Accept either flat keys or a [browserops] table, so the file can live inside a bigger config.
    table = data.get("browserops", data)
    if not isinstance(table, dict):
        raise BrowserOpsError(ErrorCode.CONFIG_INVALID, f"{path}: [browserops] must be a table.")
    return dict(table)


def load_settings(
    workspace: Path,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> LoadedSettings:
    """Merge the layers; raise BROWSER_CONFIG_INVALID naming the key and the layer it came from."""
    env = os.environ if env is None else env
    layers: list[tuple[Source, dict[str, Any]]] = []
    config_path = workspace / CONFIG_FILE_NAME
    loaded_file: Path | None = None
    if config_path.is_file():
        layers.append(("file", _read_file(config_path)))
        loaded_file = config_path
    env_values: dict[str, Any] = {}
    for name in Settings.model_fields:
        key = ENV_PREFIX + name.upper()
        if key in env:
            env_values[name] = _coerce_env(name, env[key])
    layers.append(("env", env_values))
    layers.append(("flag", {k: v for k, v in (overrides or {}).items() if v is not None}))

    merged: dict[str, Any] = {}
    sources: dict[str, Source] = dict.fromkeys(Settings.model_fields, "default")
    for source, values in layers:
        for key, value in values.items():
            if key not in Settings.model_fields:
                where = {"file": str(config_path), "env": ENV_PREFIX + key.upper(), "flag": "--set"}[source]
                raise BrowserOpsError(
                    ErrorCode.CONFIG_INVALID,
                    f"Unknown setting {key!r} (from {where}). Run `browserops config show` for valid names.",
                )
            merged[key] = value
            sources[key] = source
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = str(first["loc"][0]) if first["loc"] else "?"
        raise BrowserOpsError(
            ErrorCode.CONFIG_INVALID,
            f"Invalid value for setting {key!r} (from {sources.get(key, 'default')}): {first['msg']}.",
            details={"setting": key, "source": sources.get(key, "default")},
        ) from exc
    return LoadedSettings(settings=settings, sources=sources, config_file=loaded_file)


def parse_set_option(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Parse repeated ``--set key=value`` flags."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BrowserOpsError(
                ErrorCode.CONFIG_INVALID, f"--set expects KEY=VALUE, got {item!r} (e.g. --set max_steps=30)."
            )
        name = key.strip().replace("-", "_")
        out[name] = _coerce_env(name, value) if name in Settings.model_fields else value
    return out
