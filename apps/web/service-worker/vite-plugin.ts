import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, type ResolvedConfig, transformWithOxc } from 'vite';

const SOURCE = fileURLToPath(new URL('./service-worker.ts', import.meta.url));
/** Where the worker is served; its scope is the whole app. */
export const SERVICE_WORKER_PATH = '/sw.js';

/** Every file under `folder`, as paths relative to it with forward slashes. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Builds the service worker (service-worker.ts) into sw.js at the build's root, after everything
 * else the build writes: its list of files to keep is the build's own output (the HTML, every
 * chunk and asset, the public files), and its version is a hash of all of them and of the
 * worker, so any change to the app makes a new version that browsers install.
 */
export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pivot-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle(_options, bundle) {
      const contents = new Map<string, string | Uint8Array>();
      for (const [fileName, output] of Object.entries(bundle)) {
        if (fileName.endsWith('.map')) continue;
        contents.set(`/${fileName}`, output.type === 'chunk' ? output.code : output.source);
      }
      if (!contents.has('/index.html')) this.error('the service worker needs index.html in the build');
      if (config.publicDir && config.build.copyPublicDir) {
        for (const file of await filesUnder(config.publicDir)) {
          contents.set(`/${file}`, await readFile(path.join(config.publicDir, file)));
        }
      }
      contents.delete(SERVICE_WORKER_PATH);

      const { code } = await transformWithOxc(await readFile(SOURCE, 'utf8'), SOURCE, { lang: 'ts' });
      const files = [...contents.keys()].sort();
      const digest = createHash('sha256').update(code);
      for (const file of files) digest.update(file).update(contents.get(file)!);
      const build = { version: digest.digest('hex').slice(0, 16), files };
      this.emitFile({
        type: 'asset',
        fileName: SERVICE_WORKER_PATH.slice(1),
        source: `const BUILD = ${JSON.stringify(build)};\n${code}`,
      });
    },
  };
}
