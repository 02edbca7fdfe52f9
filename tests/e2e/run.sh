#!/usr/bin/env bash
# The browser tests: a real Chromium drives the pages of a real `ataxx serve` (each test file
# starts its own: a temporary SQLite file, a loopback port; common.mjs). Screenshots go to
# docs/screenshots/.
#   ATAXX_BIN=path        use this binary instead of building target/release/ataxx
#   E2E_CONCURRENCY=n     how many test files run at once (default 2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
"$root/scripts/install-browser.sh"

bin="${ATAXX_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --quiet -p ataxx-cli)
  bin="$root/target/release/ataxx"
fi

mkdir -p "$root/docs/screenshots"
cd "$here"
# The files share nothing (each has its own server and browser), so they run side by side.
ATAXX_BIN="$bin" SCREENSHOTS="$root/docs/screenshots" \
  node --test --test-concurrency="${E2E_CONCURRENCY:-2}" --test-reporter=spec ./*.test.mjs
