#!/usr/bin/env bash
# The static checks, one after the other (each runs whatever the others found), failing at the end
# if any failed: lint with the architecture's import rules, import cycles (type-only included),
# format, typecheck, and the migrations against the schema. The test command runs them beside the
# first test suites, where they fill the processor time those leave.
cd "$(dirname "$0")/.."

outputs=$(mktemp -d)
trap 'rm -rf "$outputs"' EXIT
failed=()
check() {
  local name=$1
  shift
  printf '\n== %s (at %d s)\n' "$name" "$SECONDS"
  "$@" >"$outputs/$name.log" 2>&1 || failed+=("$name")
  cat "$outputs/$name.log"
}

check "lint" npx eslint --max-warnings 0 .
check "no import cycles" npx tsx scripts/check-import-cycles.ts
check "format" npx prettier --check .
check "typecheck" npm run --silent typecheck
check "migrations match the schema" bash scripts/check-migrations.sh

# The test command shows a failed group's last lines: they name each failed check and its errors.
if [ ${#failed[@]} -gt 0 ]; then
  for name in "${failed[@]}"; do
    printf '\n== FAILED: %s\n' "$name"
    tail -40 "$outputs/$name.log"
  done
  exit 1
fi
printf '\nstatic checks passed in %d s\n' "$SECONDS"
