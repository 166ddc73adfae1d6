import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test-setup.ts'],
      // After each test the screen is unmounted first (the set-up's hook), then each file's own
      // hooks clear the cache and restore fetch: a screen still mounted could otherwise read
      // again through the real fetch and leave its failure in the next test's cache.
      sequence: { hooks: 'list' },
    },
  }),
);
