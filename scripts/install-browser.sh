#!/usr/bin/env bash
# Installs what the browser tests need: Debian's Chromium (when missing) and playwright-core from
# the npm registry (tests/e2e/package-lock.json pins it).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing chromium (apt)"
  sudo_or_not=""
  if [ "$(id -u)" -ne 0 ]; then sudo_or_not="sudo"; fi
  $sudo_or_not apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_or_not apt-get install -y -qq chromium >/dev/null
fi

if [ ! -d tests/e2e/node_modules/playwright-core ] || [ ! -d tests/e2e/node_modules/axe-core ]; then
  echo "== installing playwright-core and axe-core (npm)"
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
