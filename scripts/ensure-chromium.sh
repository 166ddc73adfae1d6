#!/usr/bin/env bash
# Browser tests drive Debian's chromium; install it when it is missing (never a downloaded browser).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing: install Debian's chromium package (sudo apt-get install chromium)." >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
command -v chromium
