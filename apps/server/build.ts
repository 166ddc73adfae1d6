import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * The installed packages stay imports that node resolves in node_modules, as they are: some are
 * native (@node-rs/argon2) and some read files next to their own code (PGlite's wasm and data,
 * swagger-ui's pages). The workspace packages (@pivot/*) export TypeScript source, so they are
 * compiled in with the server.
 */
const installedPackagesStayExternal: Plugin = {
  name: 'installed-packages-stay-external',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@pivot/') ? undefined : { external: true },
    );
  },
};

/**
 * Compiles the server for production (`npm start`) into one ES module, dist/main.js, that plain
 * node runs: no TypeScript loader and no transpiling while it starts.
 */
await build({
  entryPoints: [fileURLToPath(new URL('src/main.ts', import.meta.url))],
  outfile: fileURLToPath(new URL('dist/main.js', import.meta.url)),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  plugins: [installedPackagesStayExternal],
  logLevel: 'warning',
});
