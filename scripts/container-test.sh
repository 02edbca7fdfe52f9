#!/usr/bin/env bash
# Builds the repository's Dockerfile and checks the image (docs/deploy.md, "A container image"):
# /healthz and /readyz answer 200, the server runs as the unprivileged user `ataxx`, its
# database is made in the volume /data, a signup over the API works, the text door greets, the
# account is still there after a restart, and `stop` (SIGTERM) ends it with exit code 0.
# Works with Docker or Podman:
#   scripts/container-test.sh                       # docker if it is installed, else podman
#   ENGINE=podman BUILD_FLAGS=--pull=never scripts/container-test.sh
#   SKIP_BUILD=1 IMAGE=ataxx scripts/container-test.sh   # check an image already built
# Other settings: IMAGE (default ataxx), HTTP_PORT (18080), TEXT_PORT (17070), CONTEXT (the
# repository), KEEP=1 leaves the container and its volume for a look.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
engine="${ENGINE:-$(command -v docker >/dev/null && docker info >/dev/null 2>&1 && echo docker || echo podman)}"
image="${IMAGE:-ataxx}"
http_port="${HTTP_PORT:-18080}"
text_port="${TEXT_PORT:-17070}"
context="${CONTEXT:-$root}"
name="ataxx-test-$$"
volume="ataxx-test-data-$$"
base="http://127.0.0.1:$http_port"

fail() { echo "FAIL: $*" >&2; "$engine" logs "$name" >&2 2>&1 || true; exit 1; }
cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then
    "$engine" rm -f "$name" >/dev/null 2>&1 || true
    "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  echo "== $engine build ${BUILD_FLAGS:-} -t $image $context"
  # shellcheck disable=SC2086
  "$engine" build ${BUILD_FLAGS:-} -t "$image" "$context"
fi
"$engine" image inspect "$image" --format 'image {{.Id}} user={{.Config.User}} size={{.Size}}'

# The ENTRYPOINT's flags stand; the container's ports are published on other host ports.
"$engine" run -d --name "$name" -v "$volume:/data" \
  -p "127.0.0.1:$http_port:8080" -p "127.0.0.1:$text_port:7070" "$image" >/dev/null

status() { curl -s -o /dev/null -w '%{http_code}' "$@" || true; }
# Waits up to $2 seconds for the server's path $1 to answer 200.
expect_200() {
  for _ in $(seq 1 "$2"); do
    [ "$(status "$base$1")" = 200 ] && break
    sleep 1
  done
  [ "$(status "$base$1")" = 200 ] || fail "$1 does not answer 200"
  echo "ok   GET $1: 200"
}
expect_200 /healthz 60
expect_200 /readyz 30

# The server is PID 1 of the container: its real and effective user must be `ataxx`, not root.
uid=$("$engine" exec "$name" sh -c 'awk "/^Uid:/ {print \$2, \$3}" /proc/1/status')
want=$("$engine" exec "$name" id -u ataxx)
[ "$uid" = "$want $want" ] && [ "$want" != 0 ] || fail "PID 1 runs as uid '$uid', not ataxx ($want)"
echo "ok   the server runs as ataxx (uid $want): $("$engine" exec "$name" id)"

"$engine" exec "$name" test -s /data/ataxx.db || fail "no database in /data"
echo "ok   database in the volume: $("$engine" exec "$name" ls -l /data/ataxx.db)"

signup=$(status -X POST -H 'Content-Type: application/json' \
  -d '{"userid":"alice","password":"horse-battery-42"}' "$base/api/signup")
[ "$signup" = 201 ] || fail "POST /api/signup answered $signup, not 201"
echo "ok   POST /api/signup: 201"

greeting=$(exec 3<>"/dev/tcp/127.0.0.1/$text_port" && head -n 1 <&3 && exec 3>&-) || true
case "$greeting" in
  "ataxx server"*) echo "ok   text door greets: $greeting" ;;
  *) fail "text door said '$greeting'" ;;
esac

stop_and_check() {
  "$engine" stop -t 30 "$name" >/dev/null
  local code
  code=$("$engine" inspect "$name" --format '{{.State.ExitCode}}')
  [ "$code" = 0 ] || fail "exit code $code after stop (SIGTERM), not 0"
  local log
  log=$("$engine" logs "$name" 2>&1)
  grep -q "shutting down" <<<"$log" || fail "no graceful shutdown in the log"
  echo "ok   $engine stop: graceful shutdown, exit code 0"
}
stop_and_check

# The volume keeps the database: the account is there after a restart.
"$engine" start "$name" >/dev/null
for _ in $(seq 1 60); do
  [ "$(status "$base/readyz")" = 200 ] && break
  sleep 1
done
login=$(status -X POST -H 'Content-Type: application/json' \
  -d '{"userid":"alice","password":"horse-battery-42"}' "$base/api/login")
[ "$login" = 200 ] || fail "POST /api/login after a restart answered $login, not 200"
echo "ok   after a restart, POST /api/login: 200 (the volume kept the account)"
stop_and_check

echo "PASS: container image $image"
