/**
 * The first load of /login in headless Chromium (Debian's, never a downloaded one): the
 * JavaScript and CSS it fetches, gzipped, and its largest contentful paint. Targets (issue 24):
 * JavaScript ≤ 100 KB gzipped; LCP < 1 s on localhost, and < 1.5 s on an emulated phone
 * (`--phone`: support/phone.ts), which runs after the desktop loads, both printed. Figures are
 * printed beside their targets, not asserted.
 *
 *   npm run bench:web [-- --phone]          builds the web app, starts a server on a free port
 *   npm run web-login -w @pivot/bench -- [--phone] http://127.0.0.1:3000   measures a running server
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH_OPTIONS } from '../e2e/support/chromium';
import { startServer } from '../e2e/support/server-process';
import { PHONE_DESCRIPTION, emulatePhone, screenOf } from './support/phone';

const TARGET_JS_KB = 100;
const TARGET_LCP_MS = 1000;
const TARGET_PHONE_LCP_MS = 1500;
/** The median of a few cold loads: one load alone swings with whatever else the machine does. */
const RUNS = 5;

/** A file or call the page fetched: its name and when its answer had arrived, ms after navigation start. */
type Fetched = { name: string; endMs: number };
type Load = { jsBytes: number; cssBytes: number; lcpMs: number; waterfall: Fetched[] };

async function measureOnce(url: string, phone: boolean): Promise<Load> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    // A fresh context has an empty cache and no cookies: a first visit.
    const context = await browser.newContext({ locale: 'pl-PL', ...screenOf(phone) });
    const page = await context.newPage();
    if (phone) await emulatePhone(page);
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
    const waterfall = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        name: new URL(entry.name).pathname.split('/').filter(Boolean).at(-1) ?? entry.name,
        endMs: entry.responseEnd,
      })),
    );
    const assets = await Promise.all(sizes);
    const total = (type: string) =>
      assets.filter((asset) => asset.type === type).reduce((sum, a) => sum + a.gzipped, 0);
    return { jsBytes: total('script'), cssBytes: total('stylesheet'), lcpMs, waterfall };
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function line(label: string, figure: string, target?: string, met?: boolean): void {
  const verdict = target === undefined ? '' : `target ${target}: ${met ? 'met' : 'MISSED'}`;
  process.stdout.write(`  ${label.padEnd(32)}${figure.padEnd(14)}${verdict}\n`);
}

async function measure(base: string, phone: boolean): Promise<void> {
  const loads: Load[] = [];
  for (let run = 0; run < RUNS; run += 1) loads.push(await measureOnce(`${base}/login`, phone));
  const jsKb = median(loads.map((load) => load.jsBytes)) / 1024;
  const cssKb = median(loads.map((load) => load.cssBytes)) / 1024;
  const lcps = loads.map((load) => load.lcpMs);
  const lcpMs = median(lcps);
  const lcpTarget = phone ? TARGET_PHONE_LCP_MS : TARGET_LCP_MS;
  const where = phone ? `an emulated phone: ${PHONE_DESCRIPTION}` : 'a desktop, 1280×800';
  process.stdout.write(`\nFirst load of ${base}/login on ${where} (median of ${RUNS} cold loads, headless Chromium)\n`);
  line('JavaScript, gzipped', `${jsKb.toFixed(1)} KB`, `≤ ${TARGET_JS_KB} KB`, jsKb <= TARGET_JS_KB);
  line('CSS, gzipped', `${cssKb.toFixed(1)} KB`);
  line('Largest contentful paint', `${Math.round(lcpMs)} ms`, `< ${lcpTarget} ms`, lcpMs < lcpTarget);
  line('  each load', lcps.map((ms) => Math.round(ms)).join(', '));
  // The median load's waterfall: what had arrived when, up to its largest contentful paint.
  const typical = loads.find((load) => load.lcpMs === lcpMs)!;
  const arrived = typical.waterfall
    .filter((fetched) => fetched.endMs <= lcpMs)
    .sort((a, b) => a.endMs - b.endMs)
    .map((fetched) => `${fetched.name.replace(/-[\w-]{8}\.js$/, '.js')} ${Math.round(fetched.endMs)}`);
  process.stdout.write(`  median load, ms after navigation: ${arrived.join(', ')}; painted ${Math.round(lcpMs)}\n`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phone = args.includes('--phone');
  const given = args.find((arg) => arg !== '--phone') ?? process.env.BENCH_URL;
  const server = given ? undefined : await startServer();
  const base = (given ?? server!.baseUrl).replace(/\/+$/, '');
  try {
    await measure(base, false);
    if (phone) await measure(base, true);
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
