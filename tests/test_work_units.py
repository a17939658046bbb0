"""The xdist work units of scripts/test.sh (tests/work_units.py): a file each, a corpus app's modules together."""

from __future__ import annotations

from pathlib import Path

from tests.work_units import ROOT, corpus_app_of, work_unit


def test_every_corpus_test_module_names_its_app_and_shares_its_unit() -> None:
    modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "realapps").glob("test_*.py"))
    apps = {m: corpus_app_of(m) for m in modules}
    assert all(apps.values()), [m for m, app in apps.items() if not app]
    assert set(apps.values()) <= {p.name for p in (ROOT / "tests" / "realapps" / "apps").iterdir() if p.is_dir()}
    django = [m for m, app in apps.items() if app == "django_admin"]
    assert len(django) >= 2  # the app's own module and its record-and-replay module
    assert {work_unit(f"{m}::test_x[a]") for m in django} == {"corpus app django_admin"}


def test_any_other_test_is_a_unit_with_the_rest_of_its_file() -> None:
    here = Path(__file__).relative_to(ROOT).as_posix()
    assert work_unit(f"{here}::test_one") == work_unit(f"{here}::test_two[x]") == here
    assert work_unit("tests/realapps/suite.py::x") == "tests/realapps/suite.py"  # no CORPUS_APP in it
