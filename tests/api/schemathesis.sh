#!/usr/bin/env bash
# The API against its own description: schemathesis (PyPI) reads a real `ataxx serve`'s
# /api/openapi.json and sends generated requests, valid and invalid, to every operation it
# documents, checking that none answers 5xx, that every answer matches its documented status,
# content type and schema, that invalid requests are refused and valid ones accepted, and that
# authenticated operations refuse bad credentials. Any failure fails this script.
#   ATAXX_BIN=path        use this binary instead of building target/release/ataxx
#   ST_MAX_EXAMPLES=n     test cases per operation and phase (default 20)
#   ST_SEED=n             the random seed (default fixed, so runs repeat)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

venv="$root/.venv"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "== installing schemathesis into .venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"
fi

bin="${ATAXX_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --quiet -p ataxx-cli)
  bin="$root/target/release/ataxx"
fi

tmp="$(mktemp -d)"
"$bin" serve --db "$tmp/api.db" --http 127.0.0.1:0 --text off --no-rate-limits --log warn \
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
url="http://$addr"

# A signed-in user, so that the authenticated operations get past the door: /api/signup
# creates the account, /api/login answers {"userid", "token"}. Two sessions: one for every
# operation, one for /api/logout, which ends its own (tests/api/schemathesis.toml).
tokens="$("$venv/bin/python" - "$url" <<'EOF'
import json, sys, urllib.request

url = sys.argv[1]
def post(path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)

def session(userid):
    account = {"userid": userid, "password": "generated-requests"}
    post("/api/signup", account)
    return post("/api/login", account)["token"]

# A game in play on the first board (101, the smallest board number the document allows, which
# schemathesis tries first), so that the board operations reach the games, not only 404.
token, opponent = session("schemathesis"), session("opponent")
board = post("/api/games", {"opponent": "opponent"}, token)["board"]
post(f"/api/games/{board}/accept", {}, opponent)
print(token, post("/api/login", {"userid": "schemathesis", "password": "generated-requests"})["token"])
EOF
)"
read -r ST_TOKEN ST_LOGOUT_TOKEN <<<"$tokens"
export ST_TOKEN ST_LOGOUT_TOKEN

# Every operation the document describes is tested, so new routes are covered once documented.
# Every check runs (schemathesis.toml), among them ignored_auth (bad credentials must be
# refused), negative and positive data (invalid requests refused, valid ones not). One worker:
# the machine is shared.
# Run from the temporary folder: schemathesis keeps its replay files in ./.schemathesis.
cd "$tmp"
"$venv/bin/schemathesis" --no-color --config-file "$here/schemathesis.toml" \
  run "$url/api/openapi.json" \
  --seed "${ST_SEED:-20261123}" \
  --max-examples "${ST_MAX_EXAMPLES:-20}" \
  --workers 1 \
  --request-timeout 10 || {
    echo "== server log" >&2; tail -n 50 "$tmp/stderr" >&2; exit 1; }
