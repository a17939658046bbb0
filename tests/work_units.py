"""How scripts/test.sh's two xdist workers share the suite: one work unit per test file, except that all the modules
of one corpus app (``CORPUS_APP = "<app>"`` in tests/realapps) are one unit, so one worker serves that app once for
all of them (tests/realapps/conftest.py starts each app once per worker).

xdist's own ``--dist loadgroup`` cannot do this with pytest 9: it marks a group by appending ``@group`` to each
test's node id, which pytest 9 no longer lets a plugin change, so every test became its own unit
(pytest-dev/pytest-xdist#1386). This scheduler is ``--dist loadfile``'s with a wider scope for corpus modules; with
``--no-loadscope-reorder`` the units go out in collection order (tests/conftest.py: longest first).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from xdist.scheduler import LoadFileScheduling

ROOT = Path(__file__).resolve().parents[1]
_CORPUS_APP = re.compile(r'^CORPUS_APP = "(\w+)"', re.M)


@functools.cache
def corpus_app_of(test_file: str) -> str | None:
    """The corpus app a test module names (read from its text: the controller does not import test modules)."""
    path = ROOT / test_file
    if not test_file.startswith("tests/realapps/") or not path.is_file():
        return None
    found = _CORPUS_APP.search(path.read_text(encoding="utf-8"))
    return found.group(1) if found else None


def work_unit(nodeid: str) -> str:
    test_file = nodeid.split("::", 1)[0]
    app = corpus_app_of(test_file)
    return f"corpus app {app}" if app else test_file


class CorpusAppScheduling(LoadFileScheduling):
    def _split_scope(self, nodeid: str) -> str:
        return work_unit(nodeid)
