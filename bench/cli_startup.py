"""What a `browserops` process costs before it does anything: CPU seconds (user + system) of the process and its
children for a few commands that end at once, against a same-run baseline of a process importing every command
module (what each `browserops` process paid before the CLI loaded a command's module only when that command runs),
and of a bare Python. Also a Playwright driver start + stop, with and without node's compile cache (the test suite
sets ``NODE_COMPILE_CACHE``: tests/conftest.py). Every process the test suite starts pays these.

    uv run --frozen python bench/cli_startup.py [--rounds 5]

Prints one JSON object: per case the median CPU seconds over the rounds, and each command's ratio to the
eager-import baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # bench.machine, when run as a script

from bench.machine import machine_end, machine_start  # noqa: E402

EAGER = ("import importlib, browserops.cli as c; "
         "[importlib.import_module(f'browserops.cli.{m}') for m in sorted(set(c._COMMAND_MODULES.values()))]")
DRIVER = ("import asyncio\nfrom playwright.async_api import async_playwright\n"
          "async def main():\n    async with async_playwright():\n        pass\nasyncio.run(main())\n")


def cpu_of(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds of one child process (and whatever it waited for), from the rusage of reaped children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    record = machine_start()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_") and k != "NODE_COMPILE_CACHE"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # cached bytecode, as the suite has it
    with tempfile.TemporaryDirectory() as ws, tempfile.TemporaryDirectory() as cache:
        cli = [sys.executable, "-m", "browserops", "--workspace", ws]
        cases: dict[str, tuple[list[str], dict[str, str]]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], env),
            "import every command module (baseline)": ([sys.executable, "-c", EAGER], env),
            "browserops config show": ([*cli, "config", "show"], env),
            "browserops evidence list": ([*cli, "evidence", "list"], env),
            "browserops run --help": ([*cli, "run", "--help"], env),
            "browserops mcp --help": ([*cli, "mcp", "--help"], env),
            "playwright driver start+stop": ([sys.executable, "-c", DRIVER], env),
            "playwright driver start+stop, NODE_COMPILE_CACHE": ([sys.executable, "-c", DRIVER],
                                                                 {**env, "NODE_COMPILE_CACHE": cache}),
        }
        for args, case_env in cases.values():
            cpu_of(args, case_env)  # warm-up: bytecode and the node cache written, the files in the page cache
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, (args, case_env) in cases.items():
                samples[name].append(cpu_of(args, case_env))
    medians = {name: round(statistics.median(values), 3) for name, values in samples.items()}
    base = medians["import every command module (baseline)"]
    print(json.dumps({
        "machine": machine_end(record),
        "rounds": rounds,
        "cpu_s_median": medians,
        "ratio_to_eager_imports": {n: round(v / base, 3) for n, v in medians.items() if n.startswith("browserops")},
    }, indent=2))


if __name__ == "__main__":
    main()
