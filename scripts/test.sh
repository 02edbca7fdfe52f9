#!/usr/bin/env bash
# Installs what the tests need, then runs every test of the workspace:
#   - python-ataxx (PyPI `ataxx`) in .venv: the second implementation the rules, the UAI engine
#     and the PGN writer are checked against;
#   - aiosmtpd (PyPI) in the same .venv: the real SMTP server the mail tests catch mail with;
#   - Chromium (Debian) and playwright-core (npm) for the browser tests in tests/e2e.
#   - schemathesis (PyPI) in .venv for the API tests in tests/api.
#   - Postfix (Debian), which the mail door is tested behind (crates/cli/tests/server/postfix.rs).
#   - nginx (Debian), installed by tests/deploy/nginx.sh, which runs docs/deploy.md's site.
# Each stage starts with a `== name` line; at the end, passed or not, a table gives its seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

stage_names=()
stage_secs=()
stage_started=
# Closes the running stage (if any) and opens the next.
stage() {
  end_stage
  stage_names+=("$1")
  stage_started=$SECONDS
  echo "== $1"
}
end_stage() {
  if [ -n "$stage_started" ]; then
    stage_secs+=($((SECONDS - stage_started)))
    stage_started=
  fi
}
stage_table() {
  end_stage
  echo "== seconds per stage"
  local i
  for i in "${!stage_secs[@]}"; do
    printf '%6d  %s\n' "${stage_secs[$i]}" "${stage_names[$i]}"
  done
  printf '%6d  total\n' "$SECONDS"
}
pg_data=
on_exit() {
  local status=$?
  stage_table
  if [ "$status" -ne 0 ] && [ "${#stage_names[@]}" -gt 0 ]; then
    echo "FAILED in stage: ${stage_names[-1]} (exit status $status)"
  fi
  if [ -n "$pg_data" ]; then
    scripts/postgres.sh stop "$pg_data"
  fi
  exit "$status"
}
trap on_exit EXIT
# A fresh checkout (CI) builds everything once: incremental state would only cost time.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi

stage "setup (python-ataxx, aiosmtpd, Chromium, Postfix, PostgreSQL)"
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
  pg_data=$ATAXX_TEST_PGDATA
elif [ "${CI:-}" = true ]; then
  echo "PostgreSQL could not be started" >&2
  exit 1
else
  echo "NOTICE: PostgreSQL could not be started: the PostgreSQL half of the server tests is skipped"
fi

stage "cargo fmt --check"
cargo fmt --all -- --check
stage "cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
stage "cargo doc (every intra-doc link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
stage "cargo test"
# ATAXX_TEST_POSTGRES is hidden here: the workspace run is the SQLite half.
ATAXX_TEST_POSTGRES= cargo test --workspace
if [ -n "${ATAXX_TEST_POSTGRES:-}" ]; then
  stage "server tests on PostgreSQL"
  # The modules of the CLI's `server` test binary that run on PostgreSQL when it is there
  # (filters match anywhere in a test's name: these three prefixes name no other module).
  # --workspace, as above: `-p ataxx-cli` alone unifies features over its own dev-dependencies
  # only, so some dependencies got other features and were rebuilt with all above them (about
  # five minutes of CI).
  cargo test --workspace --test server -- server:: cluster:: durability::
fi
stage "browser tests"
# `cargo test` built the binary (optimised test profile) for the CLI's integration tests.
ATAXX_BIN="$PWD/target/debug/ataxx" tests/e2e/run.sh
stage "API tests (schemathesis against /api/openapi.json)"
ATAXX_BIN="$PWD/target/debug/ataxx" tests/api/schemathesis.sh
stage "the deployment's nginx site (HTTPS and WSS through deploy/nginx.conf)"
ATAXX_BIN="$PWD/target/debug/ataxx" tests/deploy/nginx.sh
