import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'simulator',
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
