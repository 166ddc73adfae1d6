import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';
import { type Plugin, type ResolvedConfig, createServer } from 'vite';
import type * as Prerender from '../src/app/prerender.tsx';

const ENTRY = fileURLToPath(new URL('../src/app/prerender.tsx', import.meta.url));
/** Where a prerendered page is written, below the build's folder: `/en/login` → `pages/en/login.html`. */
export const PRERENDERED_FOLDER = 'pages';
const ROOT_ELEMENT = '<div id="root"></div>';
const STYLESHEET = /<link rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)">/g;

/**
 * The page's stylesheets written into it: the page paints with its HTML alone, where a linked
 * stylesheet would wait for another round trip shared with the scripts' (about 0.5 s on the phone
 * profile of bench:web). The content security policy allows inline styles (helmet's default).
 */
async function withInlineStyles(html: string, outDir: string): Promise<string> {
  const sheets = new Map<string, string>();
  for (const [, href] of html.matchAll(STYLESHEET)) {
    sheets.set(href!, await readFile(path.join(outDir, href!), 'utf8'));
  }
  return html.replace(STYLESHEET, (_link, href: string) => `<style>${sheets.get(href)}</style>`);
}

/**
 * The app's modules read the browser's globals as they load (the host's brand, the stored colour
 * mode, the connection): they load in a jsdom window at the page's address, as a first visit
 * with nothing stored.
 */
function installWindow(url: string): () => void {
  const { window } = new JSDOM('', { url, pretendToBeVisual: true });
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    location: window.location,
    navigator: window.navigator,
    localStorage: window.localStorage,
    matchMedia: (query: string) => ({ matches: false, media: query, addEventListener: () => undefined }),
  };
  const previous = Object.keys(globals).map(
    (name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const,
  );
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  return () => {
    for (const [name, descriptor] of previous) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
    window.close();
  };
}

/**
 * After the build, renders the pages app/prerender.tsx lists with react-dom's `prerender` (the
 * app's own modules, loaded by a Vite server in SSR mode) into copies of the built index.html,
 * which the server sends for those addresses: the screen paints before any script has come.
 */
export function prerenderPages(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pivot-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const template = await withInlineStyles(await readFile(path.join(outDir, 'index.html'), 'utf8'), outDir);
      if (!template.includes(ROOT_ELEMENT)) this.error(`index.html has no ${ROOT_ELEMENT} to prerender into`);
      const server = await createServer({
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'warn',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const uninstall = installWindow('http://localhost/');
        try {
          const { PRERENDERED_PAGES, renderPage } = (await server.ssrLoadModule(ENTRY)) as typeof Prerender;
          for (const { locale, path: pagePath } of PRERENDERED_PAGES) {
            window.history.replaceState(null, '', pagePath);
            const html = await renderPage(locale, pagePath);
            const page = template
              .replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
              .replace(ROOT_ELEMENT, `<div id="root">${html}</div>`);
            const file = path.join(outDir, PRERENDERED_FOLDER, `${pagePath}.html`);
            await mkdir(path.dirname(file), { recursive: true });
            await writeFile(file, page);
          }
        } finally {
          uninstall();
        }
      } finally {
        await server.close();
      }
    },
  };
}
