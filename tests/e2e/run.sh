#!/usr/bin/env bash
# The browser tests: a real Chromium drives the pages of a real `ataxx serve` (temporary SQLite
# file, loopback port). Screenshots go to docs/screenshots/.
#   ATAXX_BIN=path  use this binary instead of building target/release/ataxx
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
"$root/scripts/install-browser.sh"

bin="${ATAXX_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --quiet -p ataxx-cli)
  bin="$root/target/release/ataxx"
fi

tmp="$(mktemp -d)"
"$bin" serve --db "$tmp/e2e.db" --http 127.0.0.1:0 --text off --no-rate-limits --log warn --analysis-nodes 20000 \
  --admin e2e-admin \
  >"$tmp/stdout" 2>"$tmp/stderr" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT

addr=""
for _ in $(seq 1 100); do
  addr="$(sed -n 's/^http //p' "$tmp/stdout" | head -n 1)"
  [ -n "$addr" ] && break
  if ! kill -0 "$server" 2>/dev/null; then cat "$tmp/stderr" >&2; exit 1; fi
  sleep 0.1
done
[ -n "$addr" ] || { echo "ataxx serve did not report its address" >&2; cat "$tmp/stderr" >&2; exit 1; }

mkdir -p "$root/docs/screenshots"
cd "$here"
ATAXX_URL="http://$addr" ATAXX_BIN="$bin" SCREENSHOTS="$root/docs/screenshots" \
  node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs || {
    echo "== server log" >&2; tail -n 50 "$tmp/stderr" >&2; exit 1; }
