#!/usr/bin/env bash
# The broker-account tests start a private Mosquitto 2 with its dynamic-security plugin: install
# Debian's packages when they are missing (never a downloaded broker). Nothing here starts,
# stops or configures a system Mosquitto service.
set -euo pipefail

have_mosquitto() {
  { command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; } &&
    command -v mosquitto_ctrl >/dev/null 2>&1 &&
    compgen -G '/usr/lib/*/mosquitto_dynamic_security.so' >/dev/null
}

if have_mosquitto; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Mosquitto 2 is missing: install Debian's mosquitto and mosquitto-clients packages (sudo apt-get install mosquitto mosquitto-clients)." >&2
  exit 1
fi
echo "Installing Debian's mosquitto for the broker-account tests…"
export DEBIAN_FRONTEND=noninteractive
# Installing the package would start its service; a policy-rc.d that says no keeps it stopped.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients >/dev/null
if ! have_mosquitto; then
  echo "Debian's mosquitto is installed but lacks mosquitto_ctrl or the dynamic-security plugin (Mosquitto 2 is needed)." >&2
  exit 1
fi
