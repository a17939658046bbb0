#!/usr/bin/env bash
# Run every check: setup from nothing, then lint, types and the test suite (real Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.local/bin:$PATH"
# Let Python cache bytecode (see tests/conftest.py): without it every process compiles its imports from source.
unset PYTHONDONTWRITEBYTECODE
uv run --frozen ruff check browserops tests bench domain_packs
uv run --frozen mypy
uv run --frozen lint-imports --no-cache
# The page JavaScript (browserops/browser/js/*.js) with its JSDoc types: tsc from tests/js (npm ci in setup.sh).
node tests/js/node_modules/typescript/bin/tsc -p tests/js --noEmit
uv run --frozen pytest -q -n 2 --dist loadfile --durations=30 "$@"
