/**
 * The first load of /login in headless Chromium (Debian's, never a downloaded one): the
 * JavaScript and CSS it fetches, gzipped, and its largest contentful paint. Targets: JavaScript
 * ≤ 150 KB gzipped, LCP < 1 s on localhost. Figures are printed beside their targets, not asserted.
 *
 *   npm run bench:web                       builds the web app, starts a server on a free port
 *   npm run web-login -w @pivot/bench -- http://127.0.0.1:3000   measures a running server
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH_OPTIONS } from '../e2e/support/chromium';
import { startServer } from '../e2e/support/server-process';

const TARGET_JS_KB = 150;
const TARGET_LCP_MS = 1000;
/** The median of a few cold loads: one load alone swings with whatever else the machine does. */
const RUNS = 5;

type Load = { jsBytes: number; cssBytes: number; lcpMs: number };

async function measureOnce(url: string): Promise<Load> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    // A fresh context has an empty cache and no cookies: a first visit.
    const context = await browser.newContext({ locale: 'pl-PL', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const sizes: Promise<{ type: string; gzipped: number }>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      sizes.push(response.body().then((body) => ({ type, gzipped: gzipSync(body, { level: 9 }).length })));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Zaloguj się' }).waitFor();
    const lcpMs = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((entries) => {
            const last = entries.getEntries().at(-1);
            resolve(last ? last.startTime : Number.NaN);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    const assets = await Promise.all(sizes);
    const total = (type: string) =>
      assets.filter((asset) => asset.type === type).reduce((sum, a) => sum + a.gzipped, 0);
    return { jsBytes: total('script'), cssBytes: total('stylesheet'), lcpMs };
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function line(label: string, figure: string, target?: string, met?: boolean): void {
  const verdict = target === undefined ? '' : `target ${target}: ${met ? 'met' : 'MISSED'}`;
  process.stdout.write(`  ${label.padEnd(32)}${figure.padEnd(14)}${verdict}\n`);
}

async function main(): Promise<void> {
  const given = process.argv[2] ?? process.env.BENCH_URL;
  const server = given ? undefined : await startServer();
  const base = (given ?? server!.baseUrl).replace(/\/+$/, '');
  try {
    const loads: Load[] = [];
    for (let run = 0; run < RUNS; run += 1) loads.push(await measureOnce(`${base}/login`));
    const jsKb = median(loads.map((load) => load.jsBytes)) / 1024;
    const cssKb = median(loads.map((load) => load.cssBytes)) / 1024;
    const lcpMs = median(loads.map((load) => load.lcpMs));
    process.stdout.write(`\nFirst load of ${base}/login (median of ${RUNS} cold loads, headless Chromium)\n`);
    line('JavaScript, gzipped', `${jsKb.toFixed(1)} KB`, `≤ ${TARGET_JS_KB} KB`, jsKb <= TARGET_JS_KB);
    line('CSS, gzipped', `${cssKb.toFixed(1)} KB`);
    line('Largest contentful paint', `${Math.round(lcpMs)} ms`, `< ${TARGET_LCP_MS} ms`, lcpMs < TARGET_LCP_MS);
  } finally {
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `web-login failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
