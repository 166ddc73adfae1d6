#!/usr/bin/env bash
# Fails when the drizzle schema has changes that no migration in apps/server/drizzle holds.
set -euo pipefail
cd "$(dirname "$0")/../apps/server"
output=$(npx drizzle-kit generate --name pending 2>&1)
if ! grep -q "No schema changes" <<<"$output"; then
  git clean -fdq -- drizzle >/dev/null 2>&1 || true
  git checkout -q -- drizzle 2>/dev/null || true
  echo "$output"
  echo "The schema changed without a migration: run 'npm run db:generate -w @pivot/server' and commit the result." >&2
  exit 1
fi
echo "migrations are up to date"
