import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig, minify } from 'vite';
import { prerenderPages } from './prerender/vite-plugin.ts';
import { serviceWorker } from './service-worker/vite-plugin.ts';
import { precompressedFiles } from './precompress/vite-plugin.ts';

/** In development the API runs on its own port; the dev server passes /api to it. */
/**
 * The shared contracts only define schemas: a module of them that no screen uses can be left
 * out of the bundle (the package does not say so itself, being shared with the server).
 */
const pureContracts: Plugin = {
  name: 'pivot-pure-contracts',
  transform(code, id) {
    return id.includes('/packages/contracts/src/') ? { code, moduleSideEffects: false } : null;
  },
};

/**
 * React Router's package resolves to its development build whatever the mode (its checks and
 * warnings); a production build takes the production one beside it, the same library without
 * them (0.5 KB less gzipped in every page's first code). Development and the tests keep the other.
 */
const reactRouterProduction: Plugin = {
  name: 'pivot-react-router-production',
  config: (_config, { command, mode }) =>
    command === 'build' && mode === 'production'
      ? {
          resolve: {
            alias: [
              {
                find: /^react-router$/,
                replacement: path.join(
                  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
                  'dist/production/index.mjs',
                ),
              },
            ],
          },
        }
      : null,
};

const COLOR_MODE_SCRIPT = fileURLToPath(new URL('./color-mode.js', import.meta.url));

/**
 * color-mode.js sets the page's colour mode before its first paint, so that a dark preference
 * never flashes a light page: written into every page's head, minified, rather than fetched,
 * since a script the parser waits for held each first paint back by a round trip (the server's
 * Content-Security-Policy allows it by its hash: apps/server/src/plugins/web-app.ts).
 */
const inlineColorMode: Plugin = {
  name: 'pivot-inline-color-mode',
  transformIndexHtml: async () => {
    const { code, errors } = await minify(COLOR_MODE_SCRIPT, await readFile(COLOR_MODE_SCRIPT, 'utf8'));
    if (errors.length > 0) throw new Error(`color-mode.js: ${errors.map((error) => error.message).join('; ')}`);
    return [{ tag: 'script', children: code.trim(), injectTo: 'head' }];
  },
};

/** A package's folder in node_modules, as a module id shows it. */
const packages = (...names: string[]) => new RegExp(`node_modules[\\\\/](?:${names.join('|')})[\\\\/]`);

/**
 * Libraries in chunks named after them, each fetched by the pages that use it: the benchmarks'
 * profiles name what they load (Rolldown would otherwise name a shared chunk after any module in
 * it: Leaflet's was `view-only-notice`), and the first paint fetches a few files rather than
 * twenty small ones. zod comes with the first screen that reads the API's answers, not /login.
 */
const LIBRARY_CHUNKS = [
  { name: 'react', test: packages('react', 'react-dom', 'scheduler', 'react-router') },
  { name: 'i18n', test: packages('i18next', 'react-i18next') },
  { name: 'zod', test: packages('zod') },
  { name: 'tanstack-query', test: packages('@tanstack') },
  { name: 'leaflet', test: packages('leaflet', 'react-leaflet', '@react-leaflet') },
  { name: 'geoman', test: packages('@geoman-io') },
  { name: 'radix-menu', test: packages('@radix-ui', '@floating-ui', 'react-remove-scroll', 'react-remove-scroll-bar') },
  { name: 'map-files', test: packages('proj4', 'shpjs', 'wkt-parser', 'mgrs', '@tmcw') },
];

/** A module of the web app's own source, by its path below src/ (either separator). */
const sources = (pattern: string) => new RegExp(`[\\\\/]src[\\\\/](?:${pattern.replaceAll('/', '[\\\\/]')})`);
/** A module of the shared contracts, by its file name (a zod-free one: a chunk of them imports nothing). */
const contract = (...names: string[]) =>
  new RegExp(`[\\\\/]packages[\\\\/]contracts[\\\\/]src[\\\\/](?:${names.join('|')})\\.ts$`);
const either =
  (...patterns: RegExp[]) =>
  (id: string) =>
    patterns.some((pattern) => pattern.test(id));

/**
 * The machine page's own modules and those it shares only with pages that show a map too (the
 * sector editor): one chunk with the route's rather than seven small ones (issue 33: what the
 * machine page fetches before its map). Nothing here is imported by a page without a map.
 */
const MACHINE_PAGE = either(
  contract('forbidden-zone'),
  sources(
    [
      'app/routes/sprinkler\\.tsx',
      // Not the Soil water layer's code (use-soil-water-code.ts) nor the weather stations' card (sprinkler-cards.ts).
      'features/sprinklers/components/(?:map/(?!soil-water)|watermap-controls|map-layer-toggles|machine-field-view|use-soil-water-code|motion-controls|status-panel|view-only-notice)',
      'features/sprinklers/api/(?:get-watermap|move-sprinkler|get-sprinkler)\\.ts',
      'features/sprinklers/hooks/use-map-layers\\.ts',
      'features/advice/api/get-water-balance\\.ts',
      'ui/map/',
      'lib/use-offline-reason\\.ts',
    ].join('|'),
  ),
);

/**
 * What the machines' list and the machine page both use before they show (live values, the
 * server state's client, date and number formats): one chunk rather than ten small ones. The
 * header's menus and other signed-in screens that use one of them fetch it too; none of it
 * imports Leaflet or zod.
 */
const MACHINES_SHARED = either(
  contract('machine-presence', 'geometry'),
  sources(
    [
      // Not the list's live values (its own chunk), the page's address (the entry's, app) nor the
      // machine map's layers (the machine page's).
      'features/sprinklers/hooks/(?!use-history-range|use-live-machine-list|use-map-layers)',
      'features/sprinklers/lib/',
      'features/sprinklers/components/(?:status-badge|machine-status|report-time|connection-lost-line)\\.tsx',
      'ui/no-connection-line\\.tsx',
      // The date picker's button (its calendar comes when wanted): the machine page's history and
      // the forms with a date, none of them the login page's.
      'ui/date-picker/date-picker\\.tsx',
      'lib/(?:after-first-screen|follow-event-stream|query-client|sprinkler-detail-cache)\\.ts',
      'i18n/(?:use-date-time-format|number-format|use-dotted-day)\\.ts',
      'app/layout/server-state\\.tsx',
    ].join('|'),
  ),
);

const SESSION_START = fileURLToPath(new URL('./src/session-start.ts', import.meta.url));

/**
 * The page's first script, session-start.ts, which sends the session's refresh call: an entry of
 * its own, named in every page's head before the app's entry. In the same entry it would wait for
 * React and the app's code, since no module of an entry runs before all of them have come.
 */
const sessionStart: Plugin = {
  name: 'pivot-session-start',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle, server }) {
      const entry = Object.values(bundle ?? {}).find(
        (output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId === SESSION_START,
      );
      const src = server ? '/src/session-start.ts' : entry && `/${entry.fileName}`;
      if (!src) throw new Error('session-start.ts was not built');
      // First in the head, so that it is asked for first; async, so that it runs as soon as it has
      // come, not in turn behind the app's entry.
      return [
        { tag: 'script', attrs: { type: 'module', async: true, crossorigin: !server, src }, injectTo: 'head-prepend' },
      ];
    },
  },
};

/** The session's refresh call and the little it imports (lib/session-refresh.ts). */
const SESSION_REFRESH = sources('(?:lib/session-refresh|lib/cookies|config/env)\\.ts');

export default defineConfig({
  // The service worker comes last: it lists every file the build writes (service-worker/). The
  // prerendered pages are written after the bundle, from its index.html (prerender/).
  plugins: [
    react(),
    tailwindcss(),
    pureContracts,
    reactRouterProduction,
    sessionStart,
    inlineColorMode,
    prerenderPages(),
    serviceWorker(),
    precompressedFiles(),
  ],
  build: {
    modulePreload: {
      // Every browser the app supports preloads modules itself (a browser that did not would only
      // load them a little later): the polyfill was 0.35 KB gzipped in every page's first code.
      polyfill: false,
      // The page's HTML preloads what its entry imports, so that they come beside the entry rather
      // than a round trip after it (on a phone's 150 ms, a fifth of a second before any script
      // runs); a lazy chunk never lists them again (they are loaded by then).
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html'
          ? deps
          : deps.filter((dep) => !/^assets\/(?:rolldown-runtime|react|i18n|app)-[\w-]{8}\.js$/.test(dep)),
    },
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), 'session-start': SESSION_START },
      output: {
        codeSplitting: {
          groups: [
            ...LIBRARY_CHUNKS.map((group) => ({ ...group, priority: 2 })),
            // The modules named, without what they import (the app's, the libraries' chunks).
            { name: 'machine-page', test: MACHINE_PAGE, priority: 2, includeDependenciesRecursively: false },
            { name: 'machines', test: MACHINES_SHARED, priority: 2, includeDependenciesRecursively: false },
            // What the page's first script sends the session's refresh with (session-start.ts),
            // without the app's code, which takes it from there.
            { name: 'session-refresh', test: SESSION_REFRESH, priority: 3 },
            // The app's own modules that main.tsx imports before the first paint: one file beside it.
            {
              name: 'app',
              tags: ['$initial'],
              test: (id: string) => !/(index\.html|[\\/]src[\\/](?:main|session-start)\.tsx?)$/.test(id),
              priority: 1,
            },
          ],
        },
      },
    },
  },
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // React 19's own, rather than the shim's copy for React 17 (src/lib/use-sync-external-store.ts).
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store.ts', import.meta.url)),
      },
    ],
  },
  server: { proxy: { '/api': process.env.API_URL ?? 'http://localhost:3000' } },
});
