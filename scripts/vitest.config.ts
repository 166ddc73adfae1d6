import { defineProject } from 'vitest/config';

export default defineProject({
  // Linting loads every plugin once per file: allow it a while on two cores.
  test: { name: 'lint-rules', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
