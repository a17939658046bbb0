#!/usr/bin/env bash
# Set up browserops from nothing on a Debian-like machine: uv, the Python deps, and a Chromium.
set -euo pipefail

# can_apt: this shell may install Debian packages itself (root, and apt-get is there). Every system package below
# (Chromium, Node.js and npm, redis, fonts, espeak-ng) is installed the same way when it can be, so a fresh Debian
# with only Python gets everything the README's test command needs.
can_apt() { [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# ensure_node: Node.js and npm (the widget, axe, remote-browser and SPA corpus tests run JavaScript from npm).
ensure_node() {
  if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    return 0
  fi
  if can_apt; then
    echo "setup: no Node.js/npm found; installing Debian's nodejs and npm with apt-get" >&2
    apt_install nodejs npm
  else
    echo "setup: npm not found; the widget, accessibility, remote-browser and SPA corpus tests need it" \
      "(sudo apt-get install -y nodejs npm)" >&2
    return 1
  fi
}

# Sourced (a test calls one function above): define them only.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  return 0
fi

cd "$(dirname "$0")/.."

if ! command -v uv >/dev/null 2>&1; then
  echo "setup: installing uv with pip" >&2
  python3 -m pip install --quiet uv 2>/dev/null || python3 -m pip install --quiet --user uv \
    || python3 -m pip install --quiet --break-system-packages uv
  export PATH="$HOME/.local/bin:$PATH"
fi

echo "setup: installing Python dependencies (uv sync --frozen)" >&2
uv sync --frozen --quiet

if ! uv run --frozen browserops doctor --no-launch >/dev/null 2>&1; then
  if can_apt; then
    echo "setup: no Chromium found; installing Debian's chromium with apt-get" >&2
    apt_install chromium
  else
    echo "setup: no Chromium found. Install one, then re-run:" >&2
    echo "  uv run playwright install chromium      # Playwright's own build" >&2
    echo "  sudo apt-get install -y chromium         # or Debian's package" >&2
    exit 1
  fi
fi
uv run --frozen browserops doctor --no-launch >&2

# The test suite launches Chromium's headless shell where it is installed (tests/conftest.py: a browser start costs
# about half the CPU of the full browser's). Debian ships it beside chromium, of the same release.
if [ -x /usr/lib/chromium/chromium ] && [ ! -x /usr/lib/chromium/chromium-headless-shell ] && can_apt; then
  echo "setup: installing Debian's chromium-headless-shell (the test suite's browser)" >&2
  apt_install chromium-headless-shell || echo "setup: chromium-headless-shell not installed; the tests use chromium" >&2
fi

# redis-server: the Redis lane backend's tests and bench/lanes.py start their own (no persistence, free port).
if ! command -v redis-server >/dev/null 2>&1; then
  if can_apt; then
    echo "setup: installing Debian's redis-server (Redis lane tests)" >&2
    apt_install redis-server
  else
    echo "setup: redis-server not found; the Redis lane tests need it (sudo apt-get install -y redis-server)" >&2
  fi
fi

# Test-only JavaScript (axe-core for the chat page's accessibility tests; playwright-core's browser server for
# the remote-browser tests; the widget libraries), after Node.js and npm themselves (ensure_node).
if ensure_node; then
  echo "setup: installing test JavaScript (npm ci in tests/js)" >&2
  npm ci --prefix tests/js --no-audit --no-fund --silent >/dev/null
fi

# The real-application corpus (tests/realapps/apps/*, see tests/realapps/): each app's pinned install — a uv project
# (uv.lock) or an npm one (package-lock.json, then its build). Redone only when its lock or glue changed (a stamp).
corpus_stamp() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }
for app in tests/realapps/apps/*/; do
  app="${app%/}"
  if [ -f "$app/uv.lock" ]; then
    want="uv-$(corpus_stamp "$app/uv.lock" "$app/pyproject.toml")"
    if [ "$(cat "$app/.venv/.installed" 2>/dev/null)" != "$want" ]; then
      echo "setup: installing the corpus app $app (uv sync --frozen)" >&2
      uv sync --frozen --quiet --project "$app"
      echo "$want" > "$app/.venv/.installed"
    fi
  fi
  if [ -f "$app/package-lock.json" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "setup: npm not found; the corpus app $app needs it (apt-get install -y nodejs npm)" >&2
      continue
    fi
    want="npm-$(corpus_stamp "$app/package-lock.json" "$app"/*.js "$app"/*.cjs "$app"/*.html \
      $(find "$app/src" -type f 2>/dev/null | sort))"
    if [ "$(cat "$app/.installed" 2>/dev/null)" != "$want" ]; then
      echo "setup: installing and building the corpus app $app (npm ci, npm run build)" >&2
      npm ci --prefix "$app" --no-audit --no-fund --silent >/dev/null
      npm run build --prefix "$app" --silent >/dev/null
      echo "$want" > "$app/.installed"
    fi
  fi
done

# The corpus apps' seeded databases (Django's and Wagtail's migrations), built once per version of their glue and kept
# in each app's .seed-cache/, so a test session only copies them.
echo "setup: building the corpus apps' seeded databases (cached)" >&2
uv run --frozen python -m tests.realapps.prebuild

# A CJK font, so Chinese/Japanese/Korean pages are readable in screenshots (`doctor` warns when none is there).
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh family)" ] && can_apt; then
  echo "setup: installing fonts-noto-cjk (no CJK font found)" >&2
  apt_install fonts-noto-cjk \
    || echo "setup: could not install fonts-noto-cjk; CJK text will show as boxes in screenshots" >&2
fi

# Optional: espeak-ng for `browserops chat --speak` (best effort; the feature says so when it is missing).
if ! command -v espeak-ng >/dev/null 2>&1 && can_apt; then
  echo "setup: installing espeak-ng for --speak" >&2
  apt_install espeak-ng \
    || echo "setup: could not install espeak-ng; --speak will say so" >&2
fi
