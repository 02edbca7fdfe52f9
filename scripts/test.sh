#!/usr/bin/env bash
# Installs what the tests need, then runs every test of the workspace:
#   - python-ataxx (PyPI `ataxx`) in .venv: the second implementation the rules, the UAI engine
#     and the PGN writer are checked against;
#   - aiosmtpd (PyPI) in the same .venv: the real SMTP server the mail tests catch mail with;
#   - Chromium (Debian) and playwright-core (npm) for the browser tests in tests/e2e.
#   - schemathesis (PyPI) in .venv for the API tests in tests/api.
#   - Postfix (Debian), which the mail door is tested behind (crates/cli/tests/postfix.rs).
#   - nginx (Debian), installed by tests/deploy/nginx.sh, which runs docs/deploy.md's site.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import ataxx, aiosmtpd" 2>/dev/null; then
  echo "== installing python-ataxx into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "ataxx==2.2.0" "aiosmtpd==1.4.6"
fi
export ATAXX_PYTHON="$PWD/.venv/bin/python"
scripts/install-browser.sh
scripts/install-postfix.sh
# PostgreSQL (Debian packages) in a throwaway cluster, stopped on exit: the server tests below
# run once more against it, and the cluster tests need it. Only CI must have it; elsewhere a
# machine that cannot install it skips the PostgreSQL half with a notice.
if pg_env=$(scripts/postgres.sh start); then
  eval "$pg_env"
  trap 'scripts/postgres.sh stop "$ATAXX_TEST_PGDATA"' EXIT
elif [ "${CI:-}" = true ]; then
  echo "PostgreSQL could not be started" >&2
  exit 1
else
  echo "NOTICE: PostgreSQL could not be started: the PostgreSQL half of the server tests is skipped"
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo doc (every intra-doc link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
echo "== cargo test"
# ATAXX_TEST_POSTGRES is hidden here: the workspace run is the SQLite half.
ATAXX_TEST_POSTGRES= cargo test --workspace
if [ -n "${ATAXX_TEST_POSTGRES:-}" ]; then
  echo "== server tests on PostgreSQL"
  # --workspace, as above: `-p ataxx-cli` alone unifies features over its own dev-dependencies
  # only, so some dependencies got other features and were rebuilt with all above them (about
  # five minutes of CI).
  cargo test --workspace --test server --test cluster --test durability
fi
echo "== browser tests"
# `cargo test` built the binary (optimised test profile) for the CLI's integration tests.
ATAXX_BIN="$PWD/target/debug/ataxx" tests/e2e/run.sh
echo "== API tests (schemathesis against /api/openapi.json)"
ATAXX_BIN="$PWD/target/debug/ataxx" tests/api/schemathesis.sh
echo "== the deployment's nginx site (HTTPS and WSS through deploy/nginx.conf)"
ATAXX_BIN="$PWD/target/debug/ataxx" tests/deploy/nginx.sh
