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
      // Libraries in node_modules go through Vite's resolver too, not straight to Node, so that
      // their imports of React reach Preact (vite.config.ts) as in the build: the tests run what
      // ships, @testing-library/react's render and act included. Preact itself is loaded by Node,
      // once: a test that resets its modules (vi.resetModules) would otherwise get a second
      // Preact whose hooks the first one never renders.
      server: { deps: { inline: [/node_modules[\\/](?!preact[\\/])/] } },
    },
    resolve: {
      // …picking each package's file as the build does for the browser (Vite's defaults for the
      // client): its ES module build, whose imports Vite resolves, where a CommonJS build's
      // require of react-dom would load React DOM itself.
      conditions: ['module', 'browser', 'development|production'],
      mainFields: ['browser', 'module', 'jsnext:main', 'jsnext'],
    },
  }),
);
