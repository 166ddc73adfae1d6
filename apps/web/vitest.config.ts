import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/** Files whose tests load the app's modules anew (vi.resetModules), or need them as a new page has them. */
export const FRESH_MODULES = 'src/**/*.fresh-modules.test.{ts,tsx}';

/**
 * The web app's tests, in two projects. In `web` (this file) the files a worker runs share one
 * document and the app's modules (isolate: false): a file's own document and module graph cost
 * about 2 s of processor, several times its tests' (the suite took 211 processor-seconds with each
 * file isolated, 35 shared), and the set-up file brings each file back to what a newly opened tab
 * has. `web-fresh-modules` (vitest.fresh-modules.config.ts) isolates the few files that load
 * modules anew: on a shared document the old modules would go on listening to its events beside
 * the new ones, so lint allows vi.resetModules only there.
 */
export function webTestProject(name: string, test: { include: string[]; exclude?: string[]; isolate: boolean }) {
  return mergeConfig(
    viteConfig,
    defineProject({
      test: {
        name,
        environment: 'jsdom',
        pool: 'threads',
        setupFiles: ['src/test-setup.ts'],
        // After each test the screen is unmounted first (the set-up's hook), then each file's own
        // hooks clear the cache and restore fetch: a screen still mounted could otherwise read
        // again through the real fetch and leave its failure in the next test's cache.
        sequence: { hooks: 'list' },
        ...test,
      },
    }),
  );
}

export default webTestProject('web', {
  include: ['src/**/*.test.{ts,tsx}'],
  exclude: [FRESH_MODULES],
  isolate: false,
});
