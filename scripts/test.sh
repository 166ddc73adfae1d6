#!/usr/bin/env bash
# Every check of the project, in the order a failure is cheapest to find: the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it began, so a slow step shows in CI's log.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

step "lint"
npx eslint --max-warnings 0 .

step "no import cycles, type-only imports included"
npx tsx scripts/check-import-cycles.ts

step "format"
npx prettier --check .

step "typecheck"
npm run --silent typecheck

step "migrations match the schema"
bash scripts/check-migrations.sh

step "Debian's mosquitto for the broker-account tests (each starts a private one)"
bash scripts/ensure-mosquitto.sh

step "tests on the embedded defaults (PGlite, embedded broker)"
env -u DATABASE_URL -u TEST_MQTT_URL npx vitest run --project '!chaos'

step "browser tests (Debian's chromium, the real server on its embedded defaults)"
env -u DATABASE_URL -u TEST_MQTT_URL npm run --silent test:browser

# The server and end-to-end suites again on real services when they answer: PostgreSQL and
# Mosquitto (CI has both on 127.0.0.1). In CI both are required.
postgres_url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
mqtt_url="${TEST_MQTT_URL:-mqtt://127.0.0.1:1883}"
real_env=()
for service in "postgres $postgres_url DATABASE_URL" "mqtt $mqtt_url TEST_MQTT_URL"; do
  read -r kind url variable <<<"$service"
  if node scripts/can-connect.mjs "$kind" "$url"; then
    real_env+=("$variable=$url")
  elif [ "${CI:-}" = "true" ]; then
    echo "CI expects $kind at $url, and it does not answer." >&2
    exit 1
  else
    printf '\n(%s at %s does not answer: its run is left out on this machine.)\n' "$kind" "$url"
  fi
done
if [ ${#real_env[@]} -gt 0 ]; then
  step "server and end-to-end tests on ${real_env[*]}"
  env "${real_env[@]}" npx vitest run --project server --project e2e
fi

# Real processes killed with SIGKILL, a private Mosquitto stopped and started again: it needs
# PostgreSQL (a scratch database per scenario) and Debian's mosquitto, and prints its figures.
if node scripts/can-connect.mjs postgres "$postgres_url" || [ "${CI:-}" = "true" ]; then
  step "chaos suite (kill -9, broker restarts, two instances)"
  env -u DATABASE_URL -u TEST_MQTT_URL TEST_DATABASE_URL="$postgres_url" npx vitest run --project chaos
fi

printf '\n== all checks passed in %d s\n' "$SECONDS"
