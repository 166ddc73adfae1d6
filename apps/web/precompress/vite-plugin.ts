import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The files worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest)$/;
/** Below this, the server sends a file as it is (its compression's threshold, apps/server/src/app.ts). */
const SMALLEST_BYTES = 1024;

/**
 * Writes each text file of the build beside itself compressed, `.br` (Brotli at its best) and
 * `.gz` (gzip at its best), once, for the server to send as they are (@fastify/static's
 * `preCompressed`): a page's files then cost the server no compressing while the page asks for
 * its data, and come smaller than compressed on the fly at a quick setting. Last of the build,
 * after the prerendered pages and the service worker, which lists the uncompressed files only.
 */
export function precompressedFiles(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pivot-precompressed-files',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
        const files = entries
          .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
          .map((entry) => path.join(entry.parentPath, entry.name));
        await Promise.all(
          files.map(async (file) => {
            const content = await readFile(file);
            if (content.length < SMALLEST_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
              gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          }),
        );
      },
    },
  };
}
