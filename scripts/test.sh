#!/usr/bin/env bash
# Installs what the tests need, then runs every test of the workspace:
#   - python-ataxx (PyPI `ataxx`) in .venv: the second implementation the rules, the UAI engine
#     and the PGN writer are checked against;
#   - aiosmtpd (PyPI) in the same .venv: the real SMTP server the mail tests catch mail with;
#   - Chromium (Debian) and playwright-core (npm) for the browser tests in tests/e2e.
#   - schemathesis (PyPI) in .venv for the API tests in tests/api.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import ataxx, aiosmtpd" 2>/dev/null; then
  echo "== installing python-ataxx into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "ataxx==2.2.0" "aiosmtpd==1.4.6"
fi
export ATAXX_PYTHON="$PWD/.venv/bin/python"
scripts/install-browser.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== browser tests"
# `cargo test` built the binary (optimised test profile) for the CLI's integration tests.
ATAXX_BIN="$PWD/target/debug/ataxx" tests/e2e/run.sh
echo "== API tests (schemathesis against /api/openapi.json)"
ATAXX_BIN="$PWD/target/debug/ataxx" tests/api/schemathesis.sh
