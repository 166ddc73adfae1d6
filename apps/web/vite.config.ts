import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
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

export default defineConfig({
  // The service worker comes last: it lists every file the build writes (service-worker/).
  plugins: [react(), tailwindcss(), pureContracts, serviceWorker()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: { '/api': process.env.API_URL ?? 'http://localhost:3000' } },
});
