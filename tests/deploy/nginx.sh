#!/usr/bin/env bash
# Runs docs/deploy.md's nginx site (deploy/nginx.conf) in front of a real `ataxx serve` with a
# self-made certificate, and plays a game through it over HTTPS and WSS (tests/deploy/game.mjs).
# nginx comes from Debian's package, installed when missing and we are root; elsewhere the test
# is skipped with a notice.
#   ATAXX_BIN=path  use this binary instead of building target/debug/ataxx
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "NOTICE: tests/deploy/nginx.sh skipped: nginx is not installed and we are not root"
    exit 0
  fi
  echo "== installing nginx (Debian package)" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >&2 \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >&2
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

bin="${ATAXX_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --quiet -p ataxx-cli)
  bin="${CARGO_TARGET_DIR:-$root/target}/debug/ataxx"
fi

tmp="$(mktemp -d)"
server=""
cleanup() {
  [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A self-made certificate for localhost; a site's certificate, not an authority's (CA:FALSE),
# as rustls (`ataxx client --ca-file`) refuses an authority's certificate serving a site.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost -addext basicConstraints=critical,CA:FALSE -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null

http_port=$(free_port)
tls_port=$(free_port)
plain_port=$(free_port)
"$bin" serve --db "$tmp/ataxx.db" --http "127.0.0.1:$http_port" --text off --log warn \
  --public-url "https://localhost:$tls_port" --trusted-proxy 127.0.0.1 >"$tmp/stdout" 2>"$tmp/stderr" &
server=$!

# deploy/nginx.conf as written, with this run's ports, certificate and server name.
sed -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$http_port;|" \
    -e "s|listen 443 ssl http2;|listen 127.0.0.1:$tls_port ssl http2;|" \
    -e "s|listen 80;|listen 127.0.0.1:$plain_port;|" \
    -e "s|ataxx.example.org|localhost|" \
    -e "s|/etc/ssl/ataxx/cert.pem|$tmp/cert.pem|" \
    -e "s|/etc/ssl/ataxx/key.pem|$tmp/key.pem|" \
    "$root/deploy/nginx.conf" > "$tmp/site.conf"
mkdir -p "$tmp/logs"
cat > "$tmp/nginx.conf" <<CONF
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log;
events {}
http {
    access_log $tmp/logs/access.log;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    include $tmp/site.conf;
}
CONF
"$nginx" -t -p "$tmp" -c "$tmp/nginx.conf" 2>"$tmp/nginx-test" || { cat "$tmp/nginx-test" >&2; exit 1; }
"$nginx" -p "$tmp" -c "$tmp/nginx.conf"

for _ in $(seq 1 100); do
  curl -sf --cacert "$tmp/cert.pem" "https://localhost:$tls_port/readyz" >/dev/null && break
  sleep 0.1
done
# The session cookie is Secure over HTTPS; plain HTTP is sent to HTTPS.
curl -s -o /dev/null -w '%{http_code}\n' "http://localhost:$plain_port/" | grep -q 301
NODE_EXTRA_CA_CERTS="$tmp/cert.pem" ATAXX_URL="https://localhost:$tls_port" \
  node --experimental-websocket --no-warnings "$here/game.mjs" || {
    echo "== server log" >&2; tail -n 30 "$tmp/stderr" >&2
    echo "== nginx log" >&2; tail -n 30 "$tmp/logs/error.log" >&2; exit 1; }
cookie=$(curl -s -D - -o /dev/null --cacert "$tmp/cert.pem" -H 'Content-Type: application/json' \
  -d '{"userid": "alice", "password": "secret-1"}' "https://localhost:$tls_port/api/login" | grep -i '^set-cookie')
echo "$cookie" | grep -q 'Secure' || { echo "the session cookie is not Secure: $cookie" >&2; exit 1; }

# `ataxx client` over HTTPS: without --ca-file the self-signed certificate is refused, in words
# that name the fix; with it the client signs up and plays.
url="https://localhost:$tls_port"
if "$bin" client --server "$url" signup carol secret-3 >"$tmp/refused.out" 2>"$tmp/refused.err"; then
  echo "the client trusted a self-signed certificate without --ca-file" >&2; exit 1
fi
grep -q "certificate is not trusted" "$tmp/refused.err" && grep -q -- "--ca-file" "$tmp/refused.err" \
  || { echo "unclear refusal of the certificate:" >&2; cat "$tmp/refused.err" >&2; exit 1; }
client() { "$bin" client --server "$url" --ca-file "$tmp/cert.pem" "$@"; }
client signup carol secret-3 | grep -q "Welcome, carol"
client signup robot secret-5 >/dev/null
# The field of a board's summary (`ataxx show N --json`).
field() { client ataxx show "$1" --json | python3 -c "import json, sys; print(json.load(sys.stdin)['data'][0]$2)"; }

# `ataxx bot` over HTTPS and WSS, an `ataxx uai` engine, plays a whole game against the client.
"$bin" bot --server "$url" --ca-file "$tmp/cert.pem" --user robot --password secret-5 --movetime 50 \
  -- "$bin" uai --level easy >"$tmp/bot.out" 2>"$tmp/bot.err" &
bot=$!
bot_failed() { echo "== bot log" >&2; tail -n 30 "$tmp/bot.err" >&2; kill "$bot" 2>/dev/null; exit 1; }
for _ in $(seq 1 100); do grep -q connected "$tmp/bot.err" && break; sleep 0.1; done
grep -q connected "$tmp/bot.err" || bot_failed
board=$(client ataxx challenge carol robot | sed -n 's/^Ataxx Board \([0-9]*\):.*/\1/p' | head -n 1)
client ataxx accept "$board" carol secret-3 >/dev/null
deadline=$((SECONDS + 180))
while [ "$(field "$board" "['status']")" != finished ]; do
  [ $SECONDS -lt $deadline ] || { echo "board $board did not finish" >&2; bot_failed; }
  if [ "$(field "$board" "['status']")" = active ] && [ "$(field "$board" "['to_move']")" = carol ]; then
    client ataxx move "$board" carol secret-3 "$(field "$board" "['legal_moves'][0]")" >/dev/null || true
  else
    sleep 0.2
  fi
done
kill "$bot"
grep -q "game over" "$tmp/bot.err" || bot_failed
echo "nginx: a game over HTTPS and WSS through deploy/nginx.conf; the cookie is Secure;"
echo "nginx: ataxx client (--ca-file) signed up and played board $board against ataxx bot over WSS, $(field "$board" "['ply']") plies, $(field "$board" "['result']")"
