#!/usr/bin/env bash
# Run every check: setup from nothing, then lint, types and the test suite (real Chromium). At the end: the time each
# part took, the 15 slowest tests and the test directories over their time budget (tests/budgets.toml; a warning).
set -uo pipefail
cd "$(dirname "$0")/.."
began=$SECONDS
./scripts/setup.sh || exit $?
setup_s=$((SECONDS - began))
export PATH="$HOME/.local/bin:$PATH"
# Let Python cache bytecode (see tests/conftest.py): without it every process compiles its imports from source.
unset PYTHONDONTWRITEBYTECODE
began=$SECONDS
uv run --frozen ruff check browserops tests bench domain_packs || exit $?
uv run --frozen mypy || exit $?
uv run --frozen lint-imports --no-cache || exit $?
# The page JavaScript (browserops/browser/js/*.js) with its JSDoc types: tsc from tests/js (npm ci in setup.sh).
node tests/js/node_modules/typescript/bin/tsc -p tests/js --noEmit || exit $?
checks_s=$((SECONDS - began))
junit=artifacts/tests/junit.xml  # each test's time, kept for a look after the run (artifacts/ is not versioned)
mkdir -p "$(dirname "$junit")" && rm -f "$junit"
began=$SECONDS
# One work unit per file, except that the modules of one corpus app form one (tests/work_units.py), so each app is
# served once; --no-loadscope-reorder keeps tests/conftest.py's longest-first order. Three workers on two cores: with
# two, the cores stood idle 18 % of the suite (tests waiting on pages and servers: CPU 82 % busy on average, measured
# every 5 s), and the third worker fills those waits (95-100 % busy): 16 min 48 s -> 14 min 59 s on the same tests.
uv run --frozen pytest -q -n 3 --dist loadfile --no-loadscope-reorder --junitxml="$junit" "$@"
status=$?
suite_s=$((SECONDS - began))
uv run --frozen python scripts/test_report.py "$junit" --slowest 15
printf '\nsetup %dm%02ds, lint and types %dm%02ds, test suite %dm%02ds (load average now: %s)\n' \
  $((setup_s / 60)) $((setup_s % 60)) $((checks_s / 60)) $((checks_s % 60)) $((suite_s / 60)) $((suite_s % 60)) \
  "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
exit $status
