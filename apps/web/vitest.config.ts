import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      // Each file still gets a fresh module graph and document, in a worker thread rather than a
      // child process: 102 s instead of 128 s for the suite on two cores. Files sharing modules
      // (isolate: false) took 18 s but broke, as the app's modules bind to the first file's window.
      pool: 'threads',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test-setup.ts'],
      // After each test the screen is unmounted first (the set-up's hook), then each file's own
      // hooks clear the cache and restore fetch: a screen still mounted could otherwise read
      // again through the real fetch and leave its failure in the next test's cache.
      sequence: { hooks: 'list' },
    },
  }),
);
