#!/usr/bin/env bash
# Installs Debian's Postfix, which crates/cli/tests/server/postfix.rs runs the mail door behind
# (as its own instance in a temporary folder: the machine's mail system stays unconfigured and
# stopped).
# "No configuration" leaves /etc/postfix without a main.cf, so nothing starts on port 25.
set -euo pipefail

if [ ! -x /usr/sbin/postfix ] && [ "$(id -u)" -eq 0 ]; then
  echo "== installing postfix (apt)"
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postfix >/dev/null
fi
