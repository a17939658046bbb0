#!/usr/bin/env bash
# Set everything up, then run the main job end to end on the bundled demo site.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.local/bin:$PATH"

PORT="${BROWSEROPS_DEMO_PORT:-8765}"
WS="${BROWSEROPS_DEMO_WORKSPACE:-$(mktemp -d -t browserops-demo-XXXX)}"
uv run --frozen browserops demo-site --port "$PORT" >/dev/null 2>&1 &
SITE_PID=$!
trap 'kill $SITE_PID 2>/dev/null || true' EXIT
python3 - "$PORT" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=1)
        break
    except OSError:
        time.sleep(0.2)
PY

echo "== doctor: find Chromium, open the demo site" >&2
uv run --frozen browserops --workspace "$WS" doctor --url "http://127.0.0.1:$PORT/"
