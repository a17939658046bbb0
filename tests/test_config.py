from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserops.config import Settings, load_settings, parse_set_option
from browserops.contract import BrowserOpsError, ErrorCode


def test_defaults_come_from_the_model(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path, env={})
    assert loaded.settings == Settings()
    assert set(loaded.sources.values()) == {"default"}
    assert loaded.config_file is None


def test_layers_file_then_env_then_flags(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text('max_steps = 7\nmodel = "from-file"\nheadless = false\n')
    env = {"BROWSEROPS_MAX_STEPS": "9", "BROWSEROPS_HEADLESS": "yes"}
    loaded = load_settings(tmp_path, env=env, overrides={"max_steps": 11})
    s = loaded.settings
    assert (s.max_steps, s.model, s.headless) == (11, "from-file", True)
    assert loaded.sources["max_steps"] == "flag"
    assert loaded.sources["model"] == "file"
    assert loaded.sources["headless"] == "env"
    assert loaded.sources["log_level"] == "default"


def test_browserops_table_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text("[browserops]\nlist_limit = 12\n")
    assert load_settings(tmp_path, env={}).settings.list_limit == 12


def test_unknown_key_names_key_and_source(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text("max_stepz = 3\n")
    with pytest.raises(BrowserOpsError) as info:
        load_settings(tmp_path, env={})
    assert info.value.code is ErrorCode.CONFIG_INVALID
    assert "max_stepz" in info.value.message and "browserops.toml" in info.value.message


def test_bad_value_names_key_and_layer(tmp_path: Path) -> None:
    with pytest.raises(BrowserOpsError) as info:
        load_settings(tmp_path, env={"BROWSEROPS_MAX_STEPS": "lots"})
    assert "max_steps" in info.value.message and "env" in info.value.message


def test_broken_toml_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text("max_steps = \n")
    with pytest.raises(BrowserOpsError) as info:
        load_settings(tmp_path, env={})
    assert info.value.code is ErrorCode.CONFIG_INVALID


def test_set_option_parsing() -> None:
    assert parse_set_option(["max-steps=5", "headless=off"]) == {"max_steps": "5", "headless": False}
    with pytest.raises(BrowserOpsError):
        parse_set_option(["novalue"])


@given(st.dictionaries(st.sampled_from(sorted(Settings.model_fields)), st.text(max_size=20), max_size=6))
def test_env_layer_never_crashes_unexpectedly(values: dict[str, str]) -> None:
    env = {"BROWSEROPS_" + k.upper(): v for k, v in values.items()}
    try:
        load_settings(Path("/nonexistent-ws"), env=env)
    except BrowserOpsError as exc:
        assert exc.code is ErrorCode.CONFIG_INVALID
