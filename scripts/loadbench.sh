#!/usr/bin/env bash
# The server's throughput table of docs/benchmarks.md: every `ataxx` binary named is run as the
# server under the same load generator (this tree's release `ataxx loadtest --server-bin`), one
# after the other in one run, so that builds are compared on equal terms.
#
#   scripts/loadbench.sh [--seconds S] [--postgres URL] BIN [BIN...]
#
# BIN: an `ataxx` binary, e.g. target/release/ataxx, or an older commit's built in a worktree
# (git worktree add /tmp/old 119af2a && (cd /tmp/old && cargo build --release)). Rows:
#   - SQLite, 1,000 games, 2,000 moves/s asked, --sync normal;
#   - SQLite, 1,000 games, 1,000 moves/s asked, --sync full;
#   - with --postgres: two nodes on a fresh database of that server, 2,000 moves/s asked.
# Needs the machine otherwise idle; waits for a calm load average before each row and prints it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=15
postgres=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --postgres) postgres=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--seconds S] [--postgres URL] BIN [BIN...]" >&2; exit 2; }

cargo build --release --quiet -p ataxx-cli
loadtest=target/release/ataxx

row() {
  local bin=$1 label=$2; shift 2
  local load out
  # The previous run's processes are gone, but wait (up to a minute) for the load average to
  # say so too, so that the figure it is printed beside means something.
  for _ in $(seq 60); do
    awk '{exit !($1 < 0.5)}' /proc/loadavg && break
    sleep 1
  done
  load=$(cut -d' ' -f1 /proc/loadavg)
  # A build without a feature (an old one on PostgreSQL with two nodes) gets a row saying so.
  if ! out=$("$loadtest" loadtest --server-bin "$bin" --games 1000 --seconds "$seconds" "$@" 2>&1); then
    echo "| $bin | $label | failed: $(tail -n 1 <<<"$out") | | | | $load |"
    return
  fi
  local rate p50 p99 lost
  rate=$(awk '/^moves\/s/ {print $2}' <<<"$out")
  p50=$(awk '/^latency p50/ {print $3}' <<<"$out")
  p99=$(awk '/^latency p99/ {print $3}' <<<"$out")
  lost=$(awk '/^lost/ {print $2}' <<<"$out")
  echo "| $bin | $label | $rate | $p50 | $p99 | $lost | $load |"
}

echo "| server binary | run | moves/s | p50 ms | p99 ms | lost | load before |"
echo "|---|---|---|---|---|---|---|"
n=0
for bin in "$@"; do
  row "$bin" "SQLite, rate 2000, --sync normal" --rate 2000 --sync normal
  row "$bin" "SQLite, rate 1000, --sync full" --rate 1000 --sync full
  if [ -n "$postgres" ]; then
    n=$((n + 1))
    db="${postgres%/}/ataxx_loadbench_$$_$n"
    row "$bin" "PostgreSQL, 2 nodes, rate 2000" --rate 2000 --db "$db" --nodes 2
  fi
done
