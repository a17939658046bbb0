"""Is there a font for Chinese, Japanese and Korean? Without one Chromium draws every CJK character as a box,
so screenshots of such pages are unreadable to a vision model and to a person reviewing evidence.

Asked through fontconfig's ``fc-list :lang=<lang>`` (what Chromium on Linux uses to find fonts). ``None`` when
fontconfig is not installed (the question cannot be answered, e.g. on macOS or Windows).
"""

from __future__ import annotations

import shutil
import subprocess

CJK_LANGS = ("zh", "ja", "ko")
INSTALL_HINT = "sudo apt-get install -y fonts-noto-cjk   (Debian/Ubuntu; scripts/setup.sh does it when root)"


def missing_cjk_languages(fc_list: str | None = None) -> list[str] | None:
    """The CJK languages no installed font covers, or None when fontconfig cannot be asked."""
    command = fc_list or shutil.which("fc-list")
    if command is None:
        return None
    missing: list[str] = []
    for lang in CJK_LANGS:
        try:
            done = subprocess.run([command, f":lang={lang}", "family"], capture_output=True, text=True,
                                  timeout=20, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        if not done.stdout.strip():
            missing.append(lang)
    return missing


def cjk_warning() -> str | None:
    """A one-line warning with the fix when some CJK language has no font; None when all do (or unknown)."""
    missing = missing_cjk_languages()
    if not missing:
        return None
    return (f"no font for {', '.join(missing)} (fc-list): Chinese/Japanese/Korean text renders as boxes in "
            f"screenshots. Install one: {INSTALL_HINT}")
