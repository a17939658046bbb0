"""Server-sent file names are untrusted: sanitising and the conflict strategy, as pure functions."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserops.browser.act.downloads import MAX_NAME_BYTES, place_file, sanitise_filename


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../../etc/evil name?.csv", "evil name_.csv"),
        ("/tmp/x.csv", "x.csv"),
        ("..\\..\\windows\\system32\\cmd.exe", "cmd.exe"),
        ("..", "_"),
        ("_.._etc_evil name_.csv", "_etc_evil name_.csv"),
        ("", "download"),
        ("  .hidden  ", "hidden"),
        ("report\x00\x1b[31m.pdf", "report[31m.pdf"),
        ('a<b>c:d"e|f*g.txt', "a_b_c_d_e_f_g.txt"),
        ("CON.txt", "_CON.txt"),
        ("выписка 2026.csv", "выписка 2026.csv"),
        ("报表.xlsx", "报表.xlsx"),
    ],
)
def test_sanitise_examples(raw: str, expected: str) -> None:
    assert sanitise_filename(raw) == expected


def test_long_names_keep_their_extension() -> None:
    name = sanitise_filename("ж" * 300 + ".csv")
    assert name.endswith(".csv") and len(name.encode()) <= MAX_NAME_BYTES


@given(st.text(max_size=400))
def test_sanitised_name_never_leaves_the_folder(raw: str) -> None:
    name = sanitise_filename(raw)
    assert name and name not in (".", "..") and ".." not in name
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(".") and name == name.strip()
    assert len(name.encode("utf-8")) <= MAX_NAME_BYTES
    folder = Path("/downloads")
    assert (folder / name).parent == folder


def test_rename_keeps_both_files(tmp_path: Path) -> None:
    for n in range(3):
        src = tmp_path / f"src{n}"
        src.write_text(str(n))
        _, renamed, overwritten = place_file(src, tmp_path, "report.csv", "rename")
        assert (renamed, overwritten) == (n > 0, False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report (1).csv", "report (2).csv", "report.csv"]
    assert (tmp_path / "report (2).csv").read_text() == "2"


def test_overwrite_replaces(tmp_path: Path) -> None:
    (tmp_path / "report.csv").write_text("old")
    src = tmp_path / "src"
    src.write_text("new")
    path, renamed, overwritten = place_file(src, tmp_path, "report.csv", "overwrite")
    assert (path.read_text(), renamed, overwritten) == ("new", False, True)
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]


def test_overwrite_does_not_follow_a_planted_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "report.csv").symlink_to(outside)
    src = folder / "src"
    src.write_text("new")
    place_file(src, folder, "report.csv", "overwrite")
    assert outside.read_text() == "precious"
    assert not (folder / "report.csv").is_symlink() and (folder / "report.csv").read_text() == "new"


def test_rename_with_no_extension(tmp_path: Path) -> None:
    (tmp_path / "README").write_text("a")
    src = tmp_path / "src"
    src.write_text("b")
    path, renamed, _ = place_file(src, tmp_path, "README", "rename")
    assert path.name == "README (1)" and renamed
