#!/usr/bin/env bash
# Typechecks every project with TypeScript 7, the native compiler: about a third of TypeScript 6's
# processor time on this repository (docs/benchmarks.md, "2 December: the test command on a slow
# day"). Lint and the import-cycle check read the code through TypeScript 6's API, which
# typescript-eslint needs; TypeScript 7 is installed beside it as `typescript-native`.
set -uo pipefail
cd "$(dirname "$0")/.."

tsc=node_modules/typescript-native/bin/tsc
failed=0
for project in packages/contracts apps/server apps/simulator apps/web apps/web/service-worker e2e bench; do
  node "$tsc" -p "$project/tsconfig.json" || failed=1
done
exit "$failed"
