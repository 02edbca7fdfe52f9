#!/usr/bin/env bash
# The soak of issue #28: `ataxx loadtest` on two `ataxx serve` nodes sharing a fresh PostgreSQL
# cluster for MINUTES (default 30), while
#   - a node is killed with SIGKILL in every segment of the run (loadtest --kill-node-after; each
#     segment starts two fresh nodes on a fresh database of the same cluster, so the nodes are
#     also restarted every segment);
#   - PostgreSQL is restarted (fast shutdown, then start) every PG_RESTART_S seconds;
#   - once, FILL_AT_S seconds in, the disk PostgreSQL lives on (a tmpfs of DISK_MB MiB that this
#     script mounts) is filled up for FILL_HOLD_S seconds, then freed; PostgreSQL is started
#     again if the full disk stopped it.
# Every segment's loadtest checks that every move it saw answered is in the database (`lost`)
# and that every player's socket announced its game's last recorded ply (`sockets behind`).
# The script prints each segment's figures and a summary, and fails if anything was lost or left
# behind.
#
#   scripts/soak.sh [MINUTES]
#   SEGMENT_S=300 PG_RESTART_S=240 FILL_AT_S=600 GAMES=100 RATE=40 scripts/soak.sh 30
#
# Needs root (the tmpfs) and PostgreSQL (scripts/postgres.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${1:-30}
total_s=$((minutes * 60))
segment_s=${SEGMENT_S:-300}
pg_restart_s=${PG_RESTART_S:-240}
fill_at_s=${FILL_AT_S:-$((total_s / 3))}
fill_hold_s=${FILL_HOLD_S:-20}
disk_mb=${DISK_MB:-512}
games=${GAMES:-100}
players=${PLAYERS:-20}
rate=${RATE:-40}
ataxx=${ATAXX:-}

if [ -z "$ataxx" ]; then
  cargo build --release --quiet -p ataxx-cli
  ataxx=${CARGO_TARGET_DIR:-target}/release/ataxx
fi

work=$(mktemp -d /tmp/ataxx-soak.XXXXXX)
chmod 755 "$work" # PostgreSQL runs as another user, under it
disk=$work/disk
mkdir "$disk"
mount -t tmpfs -o size=${disk_mb}m tmpfs "$disk"
chmod 755 "$disk"
pgdir=""
chaos_pid=""
# The loadtests' and nodes' logs, kept when LOGS names a directory.
logs=${LOGS:-$work}
mkdir -p "$logs"
cleanup() {
  [ -n "$chaos_pid" ] && kill "$chaos_pid" 2>/dev/null || true
  [ -n "$pgdir" ] && scripts/postgres.sh stop "$pgdir" || true
  umount "$disk" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

eval "$(TMPDIR=$disk scripts/postgres.sh start)"
pgdir=$ATAXX_TEST_PGDATA
server=$ATAXX_TEST_POSTGRES
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner() { runuser -u "$(stat -c %U "$pgdir")" -- "$@"; }
log() { echo "[$(date -u +%T) +$(($(date +%s) - started))s] $*" | tee -a "$work/events" >&2; }

# Starts PostgreSQL again if it is down (a PANIC on the full disk stops it).
revive() {
  if ! as_owner "$pg_bin/pg_ctl" -D "$pgdir/data" status >/dev/null 2>&1; then
    log "PostgreSQL is down: starting it"
    as_owner "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w start >/dev/null || true
  fi
}

# The disturbances besides the node kills, on their own clock.
chaos() {
  local next_restart=$pg_restart_s filled=0 now
  while true; do
    sleep 1
    now=$(($(date +%s) - started))
    # Not while a segment sets up (signing up, opening games): that is not what is measured.
    if [ "$filled" -eq 0 ] && [ "$now" -ge "$fill_at_s" ] &&
      [ $(($(date +%s) - $(cat "$work/segment-start"))) -ge 60 ]; then
      filled=1
      log "filling the disk"
      dd if=/dev/zero of="$disk/filler" bs=1M >/dev/null 2>&1 || true
      log "disk full ($(df -h --output=avail "$disk" | tail -n 1 | tr -d ' ') left); holding ${fill_hold_s}s"
      sleep "$fill_hold_s"
      rm -f "$disk/filler"
      log "disk freed"
      revive
    fi
    if [ "$now" -ge "$next_restart" ]; then
      next_restart=$((now + pg_restart_s))
      log "restarting PostgreSQL"
      scripts/postgres.sh restart "$pgdir" || revive
    fi
  done
}

started=$(date +%s)
echo "$started" >"$work/segment-start"
chaos &
chaos_pid=$!

segment=0
results=$work/results
: >"$results"
while [ $(($(date +%s) - started + 30)) -lt "$total_s" ]; do
  segment=$((segment + 1))
  left=$((total_s - ($(date +%s) - started)))
  seconds=$((left < segment_s ? left : segment_s))
  # Setup (signing up, opening games) is not counted in `seconds`.
  seconds=$((seconds > 60 ? seconds - 20 : seconds))
  # Not while the disk is full (see chaos).
  while [ -e "$disk/filler" ]; do sleep 1; done
  date +%s >"$work/segment-start"
  log "segment $segment: $games games, $rate moves/s, ${seconds}s, a node killed halfway"
  out=$work/segment-$segment
  if ! "$ataxx" loadtest --db "$server/soak_$segment" --nodes 2 --games "$games" \
    --players "$players" --rate "$rate" --seconds "$seconds" \
    --kill-node-after $((seconds / 2)) >"$out" 2>"$logs/segment-$segment.err"; then
    log "segment $segment: loadtest failed"
    tail -n 20 "$logs/segment-$segment.err" >&2
    echo "failed 1" >>"$results"
  fi
  cat "$out"
  grep -E '^(moves |acknowledged|errors|lost|sockets behind)' "$out" >>"$results" || true
  revive
done

kill "$chaos_pid" 2>/dev/null || true
wait "$chaos_pid" 2>/dev/null || true
chaos_pid=""
acknowledged=$(grep '^acknowledged' "$results" | awk '{ s += $2 } END { print s + 0 }')
lost=$(grep '^lost' "$results" | awk '{ s += $2 } END { print s + 0 }')
errors=$(grep '^errors' "$results" | awk '{ s += $2 } END { print s + 0 }')
behind=$(grep '^sockets behind' "$results" | awk '{ s += $3 } END { print s + 0 }')
failed=$(grep -c '^failed' "$results" || true)
restarts=$(grep -c 'restarting PostgreSQL' "$work/events" || true)
fills=$(grep -c 'disk full' "$work/events" || true)
echo "== soak: $minutes min, $segment segments (a node killed in each), $restarts PostgreSQL restarts, disk filled $fills time(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "acknowledged     $acknowledged moves"
echo "errors           $errors (refused while the database was away)"
echo "lost             $lost"
echo "sockets behind   $behind"
echo "failed segments  $failed"
[ "$lost" -eq 0 ] && [ "$behind" -eq 0 ] && [ "$failed" -eq 0 ]
