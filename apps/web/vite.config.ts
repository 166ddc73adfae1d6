import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { prerenderPages } from './prerender/vite-plugin.ts';
import { serviceWorker } from './service-worker/vite-plugin.ts';

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

export default defineConfig({
  // The service worker comes last: it lists every file the build writes (service-worker/). The
  // prerendered pages are written after the bundle, from its index.html (prerender/).
  plugins: [react(), tailwindcss(), pureContracts, prerenderPages(), serviceWorker()],
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...LIBRARY_CHUNKS.map((group) => ({ ...group, priority: 2 })),
            // The app's own modules that main.tsx imports before the first paint: one file beside it.
            {
              name: 'app',
              tags: ['$initial'],
              test: (id: string) => !/(index\.html|[\\/]src[\\/]main\.tsx)$/.test(id),
              priority: 1,
            },
          ],
        },
      },
    },
  },
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  server: { proxy: { '/api': process.env.API_URL ?? 'http://localhost:3000' } },
});
