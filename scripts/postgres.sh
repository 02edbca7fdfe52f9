#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests and prints the shell lines that export it:
#   eval "$(scripts/postgres.sh start)"   # sets ATAXX_TEST_POSTGRES and ATAXX_TEST_PGDATA
#   scripts/postgres.sh restart "$ATAXX_TEST_PGDATA"   # a fast shutdown, then the same cluster again
#   scripts/postgres.sh halt "$ATAXX_TEST_PGDATA"     # a fast shutdown; `resume` starts it again
#   scripts/postgres.sh stop "$ATAXX_TEST_PGDATA"
# PostgreSQL comes from Debian's packages (installed when missing and we are root). The cluster
# runs as an unprivileged user (PostgreSQL refuses root) on a free loopback port, with password
# authentication so that the tests see a URL with a password in it (and check it is never printed).
# Everything lives in one temporary directory (under $TMPDIR, default /tmp) that `stop` removes.
set -euo pipefail

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

start() {
  local bin
  bin=$(pg_bin || true)
  if [ -z "$bin" ]; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "PostgreSQL is not installed and we are not root to install it" >&2
      exit 1
    fi
    echo "== installing PostgreSQL (Debian packages)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    bin=$(pg_bin)
  fi
  local owner dir port password
  owner=$(id -un)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ataxx-pg.XXXXXX")
  if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    id postgres >/dev/null 2>&1 || owner=nobody
    chown "$owner" "$dir"
  fi
  as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u "$owner" -- "$@"; else "$@"; fi; }
  password="test-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
  as_owner bash -c "umask 077; echo '$password' > '$dir/pw'"
  as_owner "$bin/initdb" -D "$dir/data" -U ataxx --pwfile="$dir/pw" -A scram-sha-256 \
    --no-sync >/dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # fsync off: a throwaway cluster; max_connections: each server node pools up to 16.
  as_owner bash -c "echo '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400' > '$dir/options'"
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
  echo "export ATAXX_TEST_POSTGRES='postgres://ataxx:$password@127.0.0.1:$port'"
  echo "export ATAXX_TEST_PGDATA='$dir'"
}

# Runs a command as the owner of the cluster in directory $1.
as_owner_of() {
  local dir=$1
  shift
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$(stat -c %U "$dir")" -- "$@"; else "$@"; fi
}

# Restarts the cluster: a fast shutdown (every connection is ended), then a start with the same
# options (pg_ctl keeps them in postmaster.opts).
restart() {
  local dir=${1:?usage: postgres.sh restart DIR}
  as_owner_of "$dir" "$(pg_bin)/pg_ctl" -D "$dir/data" -l "$dir/log" -w -m fast restart >/dev/null
}

# Stops the cluster (a fast shutdown) and keeps it, for `resume`: the database goes away.
halt() {
  local dir=${1:?usage: postgres.sh halt DIR}
  as_owner_of "$dir" "$(pg_bin)/pg_ctl" -D "$dir/data" -w -m fast stop >/dev/null
}

# Starts a halted cluster again with its options.
resume() {
  local dir=${1:?usage: postgres.sh resume DIR}
  as_owner_of "$dir" "$(pg_bin)/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
}

stop() {
  local dir=${1:?usage: postgres.sh stop DIR}
  local bin
  bin=$(pg_bin)
  as_owner_of "$dir" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  restart) restart "${2:-}" ;;
  halt) halt "${2:-}" ;;
  resume) resume "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | restart DIR | halt DIR | resume DIR | stop DIR" >&2; exit 2 ;;
esac
