"""Build what the corpus apps need before a test session: each app's seeded database, for apps that have one to
build (``seed()`` in its ``app.py``: Django's and Wagtail's migrations take minutes on a loaded 2-core machine).
scripts/setup.sh runs this once the apps are installed; a test session then only copies the cached file.

    uv run --frozen python -m tests.realapps.prebuild
"""

from __future__ import annotations

import importlib
import sys
import time

from tests.realapps.catalogue import app_names


def main() -> int:
    for name in app_names():
        module = importlib.import_module(f"tests.realapps.apps.{name}.app")
        seed = getattr(module, "seed", None)
        if seed is None:
            continue
        began = time.monotonic()
        path = seed()
        print(f"prebuild: {name}: seeded database {path.name} ({time.monotonic() - began:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
