#!/usr/bin/env bash
# Every check of the project: the README's test command. Checks that need nothing of each other
# run side by side, two at a time on the two cores CI has; their output is printed whole, one
# after the other, once all of a group have ended.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# side_by_side NAME COMMAND [NAME COMMAND]…: runs the commands at once; fails if any failed. The
# logs of those that passed are printed first, then the failed ones, each ending with what failed:
# CI shows only the end of a long output, and that end must name the failure.
side_by_side() {
  local names=() pids=() outcomes=() ended=() failed=0
  while [ $# -gt 0 ]; do
    names+=("$1")
    bash -c "$2" >"$logs/${#names[@]}.log" 2>&1 &
    pids+=($!)
    shift 2
  done
  for index in "${!pids[@]}"; do
    outcomes[index]=passed
    wait "${pids[$index]}" || { outcomes[index]=FAILED; failed=1; }
    ended[index]=$SECONDS
  done
  for wanted in passed FAILED; do
    for index in "${!pids[@]}"; do
      [ "${outcomes[$index]}" = "$wanted" ] || continue
      printf '\n== %s: %s (ended by %d s)\n' "${names[$index]}" "${outcomes[$index]}" "${ended[$index]}"
      cat "$logs/$((index + 1)).log"
    done
  done
  for index in "${!pids[@]}"; do
    [ "${outcomes[$index]}" = FAILED ] || continue
    step "FAILED: ${names[$index]}; its failures"
    # Vitest's and Playwright's failures (their FAIL, ✘ or × lines and the first lines of the error), else the log's end.
    local failures
    failures=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/$((index + 1)).log" | grep -E -A12 '(FAIL|✗|✘|×) ' || true)
    if [ -n "$failures" ]; then printf '%s\n' "$failures" | head -150; else tail -60 "$logs/$((index + 1)).log"; fi
  done
  return "$failed"
}

step "Debian's mosquitto for the broker-account tests (each starts a private one)"
bash scripts/ensure-mosquitto.sh

# The server suites run again on real services when they answer: PostgreSQL and Mosquitto (CI
# has both on 127.0.0.1). In CI both are required.
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

embedded="env -u DATABASE_URL -u TEST_MQTT_URL"

# Beside the embedded suites: the server suite on the real services when they answer, and the
# chaos suite when PostgreSQL does (real processes killed with SIGKILL, a private Mosquitto
# stopped and started again: a scratch database per scenario and Debian's mosquitto; it mostly
# waits on the processes it breaks, and prints its figures). Each run builds what it needs into
# folders of its own. The embedded suites take two workers (each file has its own broker and
# database); the server suite on the real services one in each of its two halves, so that no two
# files' machines meet on one broker. The browser tests come after, with nothing heavy beside them: their
# assertions wait seconds, not minutes.
# The static checks run one after the other beside them: as a stage of their own, side by side,
# they left one core idle while the typecheck ended, and the suites leave some of a core free
# (docs/benchmarks.md, "1 December: where the test command's time goes").
tests=(
  "static checks: lint, import cycles (type-only included), format, typecheck, migrations" "bash scripts/static-checks.sh"
  "tests on the embedded defaults (PGlite, embedded broker)" "$embedded npx vitest run --project '!chaos' --maxWorkers=2"
)
if [ ${#real_env[@]} -gt 0 ]; then
  # In two halves at once: the suite mostly waits on one file at a time. The second half's
  # machines meet no other file's on a Mosquitto of its own (Debian's, started here).
  second_env=("${real_env[@]}")
  if [[ " ${real_env[*]} " == *" TEST_MQTT_URL="* ]]; then
    second_broker=$(bash scripts/private-mosquitto.sh start "$logs/second-broker")
    trap 'bash scripts/private-mosquitto.sh stop "$logs/second-broker"; rm -rf "$logs"' EXIT
    second_env=("${real_env[@]/#TEST_MQTT_URL=*/TEST_MQTT_URL=$second_broker}")
  fi
  tests+=(
    "server tests on ${real_env[*]}, first half" "env ${real_env[*]} npx vitest run --project server --maxWorkers=1 --shard=1/2"
    "server tests on ${second_env[*]}, second half" "env ${second_env[*]} npx vitest run --project server --maxWorkers=1 --shard=2/2"
  )
fi
if node scripts/can-connect.mjs postgres "$postgres_url" || [ "${CI:-}" = "true" ]; then
  tests+=("chaos suite (kill -9, broker restarts, two instances)" "$embedded TEST_DATABASE_URL='$postgres_url' npx vitest run --project chaos")
fi
step "the static checks and the suites on the embedded defaults, and beside them the real services' and the chaos suite"
side_by_side "${tests[@]}"

browser=("browser tests (Debian's chromium, the real server on its embedded defaults)" "$embedded npm run --silent test:browser")
if [ ${#real_env[@]} -gt 0 ]; then
  browser+=("end-to-end tests on ${real_env[*]}" "env ${real_env[*]} npx vitest run --project e2e")
fi
step "browser tests, beside the end-to-end suite on the real services"
side_by_side "${browser[@]}"

printf '\n== all checks passed in %d s\n' "$SECONDS"
