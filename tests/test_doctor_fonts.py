"""``browserops doctor`` warns, with the fix, when no installed font covers Chinese, Japanese or Korean."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import orjson

from browserops.browser.launch.fonts import missing_cjk_languages
from tests.test_cli_basics import run


def _fontconfig_says_missing() -> list[str]:
    fc_list = shutil.which("fc-list")
    assert fc_list, "fontconfig's fc-list is needed by Chromium on Linux and by this check"
    return [lang for lang in ("zh", "ja", "ko")
            if not subprocess.run([fc_list, f":lang={lang}", "family"], capture_output=True, text=True,
                                  check=True).stdout.strip()]


def test_missing_cjk_languages_agrees_with_fontconfig() -> None:
    assert missing_cjk_languages() == _fontconfig_says_missing()


def test_doctor_warns_exactly_when_a_cjk_font_is_missing(tmp_path: Path) -> None:
    code, out, _ = run("--workspace", str(tmp_path), "--json", "doctor", "--no-launch")
    assert code == 0
    report = orjson.loads(out)
    missing = _fontconfig_says_missing()
    if missing:
        (warning,) = report["warnings"]
        assert "fonts-noto-cjk" in warning and all(lang in warning for lang in missing)
    else:
        assert "warnings" not in report


def test_without_fontconfig_the_question_is_unanswered(tmp_path: Path) -> None:
    assert missing_cjk_languages(str(tmp_path / "no-fc-list")) is None


def test_doctor_warns_with_the_fix_when_fontconfig_sees_no_cjk_font(tmp_path: Path) -> None:
    # A real fontconfig configuration that knows no fonts at all: every CJK language is missing.
    (tmp_path / "fonts").mkdir()
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{tmp_path / "fonts"}</dir>'
                      f'<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n')
    env = {"FONTCONFIG_FILE": str(config)}
    code, out, _ = run("--workspace", str(tmp_path), "--json", "doctor", "--no-launch", env=env)
    assert code == 0
    (warning,) = orjson.loads(out)["warnings"]
    assert "no font for zh, ja, ko" in warning and "fonts-noto-cjk" in warning
    code, _, err = run("--workspace", str(tmp_path), "doctor", "--no-launch", env=env)
    assert code == 0 and err.startswith("warning: no font for zh, ja, ko")
