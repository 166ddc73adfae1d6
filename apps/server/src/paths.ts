import { fileURLToPath } from 'node:url';

/*
 * Folders the server reads at run time, found from this file's place: one level under
 * apps/server both as source (src/paths.ts) and bundled into the compiled dist/main.js that
 * `npm start` runs, so the same relative paths hold for both.
 */

/** The SQL migrations that drizzle-kit generates. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../drizzle', import.meta.url));
/** The built web app (`npm run build -w @pivot/web`), unless WEB_DIST_DIR names another. */
export const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
