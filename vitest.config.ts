import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'apps/server',
      'apps/simulator',
      'apps/web',
      'apps/web/vitest.fresh-modules.config.ts',
      'e2e',
      'e2e/chaos',
      'scripts',
    ],
  },
});
