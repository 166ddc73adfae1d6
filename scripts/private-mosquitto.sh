#!/usr/bin/env bash
# A Mosquitto of the test command's own on a free port of 127.0.0.1, anonymous, nothing kept:
#   private-mosquitto.sh start DIR   starts it with its files in DIR and prints its URL;
#   private-mosquitto.sh stop DIR    stops it.
# Debian's mosquitto (scripts/ensure-mosquitto.sh); nothing here touches a system broker.
set -euo pipefail
cd "$(dirname "$0")/.."

command=$1
dir=$2
case "$command" in
start)
  mkdir -p "$dir"
  port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$dir/mosquitto.conf"
  mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
  "$mosquitto" -c "$dir/mosquitto.conf" >"$dir/mosquitto.log" 2>&1 &
  echo $! >"$dir/mosquitto.pid"
  url="mqtt://127.0.0.1:$port"
  for _ in $(seq 50); do
    if node scripts/can-connect.mjs mqtt "$url"; then
      echo "$url"
      exit 0
    fi
    sleep 0.2
  done
  echo "The test command's own Mosquitto did not start at $url:" >&2
  cat "$dir/mosquitto.log" >&2
  exit 1
  ;;
stop)
  if [ -f "$dir/mosquitto.pid" ]; then kill "$(cat "$dir/mosquitto.pid")" 2>/dev/null || true; fi
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
