import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['api/**/*.test.ts'],
    testTimeout: 60_000,
    // A server's start waits up to 180 s (support/server-process.ts).
    hookTimeout: 240_000,
  },
});
