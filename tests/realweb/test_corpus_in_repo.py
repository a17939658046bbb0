"""The saved real pages live in the repository (a fresh clone runs every test): the corpus with its LICENSE and
README under ``tests/realweb/pages/``, still gzipped; nothing in the repository reads a folder beside it."""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

from browserops.demo_site.real_pages import DEFAULT_DIR, page_names

ROOT = Path(__file__).resolve().parents[2]
# Spelled in pieces so this file does not match itself.
_OUTSIDE = re.compile("|".join([r"\.\./" + "shared", "/work/" + "shared", r"parent\s*/\s*[\"']" + "shared"]))
CODE = (".py", ".sh", ".toml", ".cfg", ".ini", ".yaml", ".yml", ".js", ".mjs", ".ts", ".json")


def test_the_corpus_sits_in_the_repository_with_its_license() -> None:
    assert DEFAULT_DIR == ROOT / "tests" / "realweb" / "pages"
    assert len(page_names(DEFAULT_DIR)) == 181
    assert "MIT License" in (DEFAULT_DIR / "LICENSE").read_text()
    readme = (DEFAULT_DIR / "README.md").read_text()
    assert "scrapinghub/article-extraction-benchmark" in readme
    first = sorted(DEFAULT_DIR.glob("*.html.gz"))[0]
    assert b"<" in gzip.decompress(first.read_bytes())[:4096]
    tracked = subprocess.run(["git", "ls-files", "tests/realweb/pages"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert len(tracked) == 183, "the pages, LICENSE and README must be committed"


def test_nothing_in_the_repository_reads_a_folder_beside_it() -> None:
    """Every tracked code file — the package, tests, ``bench/`` and ``scripts/`` (shell scripts with or without an
    extension) — is read; none names the shared folder beside the repository."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    readers: list[str] = []
    read: set[str] = set()
    for name in tracked.split():
        path = ROOT / name
        script = name.startswith("scripts/") and "." not in Path(name).name
        if not (name.endswith(CODE) or script) or name.startswith("bench/results/") or not path.is_file():
            continue
        read.add(name)
        text = path.read_text(encoding="utf-8", errors="replace")
        readers += [f"{name}: {m.group(0)}" for m in _OUTSIDE.finditer(text)]
    assert readers == []
    # The places that run outside pytest are read too: the benchmarks and the setup/test scripts.
    assert {"bench/real_pages.py", "scripts/setup.sh", "scripts/test.sh"} <= read
    assert {n for n in read if n.startswith("bench/")} == {n for n in tracked.split()
                                                           if n.startswith("bench/") and n.endswith(".py")}
