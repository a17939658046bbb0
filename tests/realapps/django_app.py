"""The corpus apps that are Django projects (Django admin + django-import-export, django-unfold in Russian, Wagtail):
each a deployer's project in its own venv under ``tests/realapps/apps/<name>``, configured by environment variables
``<PREFIX>_DB`` (the sqlite file), ``<PREFIX>_SESSIONS`` (file sessions beside it, so a profile signed in once stays
signed in across reseeds) and, where it stores uploads, ``<PREFIX>_MEDIA``.

:class:`DjangoApp` migrates and seeds a database once per version of the app's glue (``seeded_database``: kept in
``.seed-cache/``), serves a fresh copy with Django's own ``runserver`` (``--noreload``; it logs method, path and
status of every request) on a free port, and puts a fresh copy of the seeded file in place between tasks. The
apps' questions read the sqlite file directly, read-only.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.realapps.corpus import copy_database, seeded_database
from tests.realapps.harness import APPS, RunningApp, app_process, free_port


@dataclass(frozen=True)
class DjangoApp:
    name: str  # its folder under tests/realapps/apps and RunningApp's name
    env_prefix: str  # EXPENSEDESK -> EXPENSEDESK_DB, EXPENSEDESK_SESSIONS (and _MEDIA with ``media``)
    settings: str  # DJANGO_SETTINGS_MODULE
    password: str  # the seeded user's, given to its seed_corpus command
    media: bool = False  # it stores uploads (Wagtail's images)
    manage_timeout_s: float = 300.0  # migrating Wagtail takes minutes on a loaded machine
    start_timeout_s: float = 60.0

    @property
    def here(self) -> Path:
        return APPS / self.name

    @property
    def python(self) -> Path:
        return self.here / ".venv" / "bin" / "python"

    def _env(self, database: Path, tmp: Path) -> dict[str, str]:
        env = {f"{self.env_prefix}_DB": str(database), f"{self.env_prefix}_SESSIONS": str(tmp / "sessions"),
               "PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": self.settings}
        if self.media:
            env[f"{self.env_prefix}_MEDIA"] = str(tmp / "media")
        return env

    def _manage(self, env: dict[str, str], *args: str) -> None:
        if not self.python.exists():
            raise RuntimeError(f"{self.python} is missing: run ./scripts/setup.sh (it installs the corpus "
                               "applications)")
        done = subprocess.run([str(self.python), "manage.py", *args], cwd=self.here, env={**os.environ, **env},
                              capture_output=True, text=True, timeout=self.manage_timeout_s, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")

    def seed(self) -> Path:
        """The migrated and seeded database, built once per version of the app's glue and pins (scripts/setup.sh
        builds it, so a test session only copies it)."""
        def build(path: Path) -> None:
            with tempfile.TemporaryDirectory(prefix=f"{self.name}-seed-") as tmp:
                self._manage(self._env(path, Path(tmp)), "migrate", "--verbosity", "0")
                self._manage(self._env(path, Path(tmp)), "seed_corpus", "--password", self.password)

        return seeded_database(self.here, build)

    @contextlib.contextmanager
    def start(self, tmp: Path) -> Iterator[RunningApp]:
        live, sessions = tmp / "live.sqlite3", tmp / "sessions"
        sessions.mkdir(parents=True, exist_ok=True)
        seed_file = self.seed()
        copy_database(seed_file, live)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        cmd = [str(self.python), "manage.py", "runserver", "--noreload", "--insecure", f"127.0.0.1:{port}"]
        with app_process(cmd, cwd=self.here, env=self._env(live, tmp), health_url=base_url + "/admin/login/",
                         log_path=tmp / "requests.log", timeout_s=self.start_timeout_s):
            yield RunningApp(self.name, base_url, tmp / "requests.log",
                             {"seed": seed_file, "database": live, "sessions": sessions})

    def reseed(self, app: RunningApp) -> None:
        copy_database(Path(str(app.data["seed"])), self.database(app))

    @staticmethod
    def database(app: RunningApp) -> Path:
        return Path(str(app.data["database"]))
