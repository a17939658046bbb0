#!/usr/bin/env bash
# Set everything up, then run the main job end to end on the bundled demo site:
# prepare (read-only: snapshot + diff + confirm phrase) -> run --confirm -> evidence verify.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.local/bin:$PATH"

PORT="${BROWSEROPS_DEMO_PORT:-8765}"
WS="${BROWSEROPS_DEMO_WORKSPACE:-$(mktemp -d -t browserops-demo-XXXX)}"
SITE="http://127.0.0.1:$PORT"
INPUT="browserops/packs/builtin/demo_expense/example_input.yaml"   # names its receipt file, example_receipt.png
bo() { uv run --frozen browserops --workspace "$WS" "$@"; }

uv run --frozen browserops demo-site --port "$PORT" >/dev/null 2>&1 &
SITE_PID=$!
trap 'kill $SITE_PID 2>/dev/null || true' EXIT
python3 - "$SITE" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(sys.argv[1] + "/", timeout=1)
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("the demo site did not start")
PY

echo "== 1. prepare: look at $SITE/expense read-only, write the plan and its diff" >&2
rc=0
PLAN_JSON=$(bo --json prepare --pack demo_expense --input "$INPUT" --base-url "$SITE") || rc=$?
if [ "$rc" -ne 2 ]; then   # 2 = the plan has changes (terraform plan -detailed-exitcode)
  echo "$PLAN_JSON"
  echo "prepare failed (exit $rc)" >&2
  exit 1
fi
read -r REQUEST_ID PHRASE < <(python3 -c '
import json, sys
plan = json.load(sys.stdin)
print(plan["diffText"], file=sys.stderr)
print(plan["requestId"], plan["confirmPhrase"])' <<<"$PLAN_JSON")
echo "Plan $REQUEST_ID, confirm phrase: $PHRASE" >&2

echo "== 2. run: execute exactly that plan, acting by element number, with before/after screenshots" >&2
bo run "$REQUEST_ID" --confirm "$PHRASE"

echo "== 3. evidence verify: re-hash every file of the bundle against its manifest" >&2
bo evidence verify "$REQUEST_ID"
BUNDLE=$(bo --json evidence verify "$REQUEST_ID" | python3 -c 'import json, sys; print(json.load(sys.stdin)["report"]["path"])')
echo ""
echo "Evidence bundle: $BUNDLE"
echo "  (plan.json, snapshots/, screenshots/, events.jsonl, summary.md, manifest-sha256.txt)"
echo "Read it with: uv run browserops --workspace $WS evidence show $REQUEST_ID"
