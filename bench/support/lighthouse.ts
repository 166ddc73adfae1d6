import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_LAUNCH_OPTIONS } from '@pivot/e2e/support/chromium';
import lighthouse from 'lighthouse';
import { type Cookie, chromium } from 'playwright-core';
import { waitUntil } from './stats';

/** What Lighthouse's performance audit of a page says: its score (0–100) and the metrics it is made of. */
export type LighthouseFigures = {
  score: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  speedIndexMs: number;
  cumulativeLayoutShift: number;
  /** What its blocking time is made of: the longest main-thread tasks, simulated. */
  longestTasks: { url: string; startMs: number; durationMs: number }[];
};

/** The rows of an audit's table, as Lighthouse's report gives them. */
function tableRows(details: unknown): Record<string, unknown>[] {
  if (typeof details !== 'object' || details === null || !('items' in details) || !Array.isArray(details.items)) {
    return [];
  }
  return (details.items as unknown[]).filter(
    (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
  );
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : Number.NaN);
/** The file a task ran in, by its name (the page's own work by the last part of its address). */
const shortUrl = (value: unknown) =>
  typeof value === 'string' ? (new URL(value, 'http://page/').pathname.split('/').at(-1) ?? value) : 'other';

type Audits = Record<string, { details?: unknown } | undefined>;

/** The five longest main-thread tasks of the audit (the script each ran in), as Lighthouse simulates them. */
function longestTasks(audits: Audits) {
  return tableRows(audits['long-tasks']?.details)
    .map((row) => ({ url: shortUrl(row.url), startMs: numberOf(row.startTime), durationMs: numberOf(row.duration) }))
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, 5);
}

/**
 * Lighthouse's performance audit with its default settings, those of its mobile profile (a
 * mid-range phone: CPU ×4 slower and a slow 4G link, simulated from an unthrottled load), on
 * Debian's chromium in a fresh profile: a first visit, with the given cookies (a signed-in user's)
 * and nothing else stored. Lighthouse drives the browser over its DevTools port.
 */
export async function auditPerformance(url: string, cookies: readonly Cookie[] = []): Promise<LighthouseFigures> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'pivot-lighthouse-'));
  const browser = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM_LAUNCH_OPTIONS,
    args: [...CHROMIUM_LAUNCH_OPTIONS.args, '--remote-debugging-port=0'],
  });
  try {
    await browser.addCookies([...cookies]);
    // Chromium writes the port it chose into the profile.
    const portFile = path.join(profile, 'DevToolsActivePort');
    let port = 0;
    await waitUntil(
      async () => {
        port = Number((await readFile(portFile, 'utf8').catch(() => '')).split('\n')[0]);
        return port > 0;
      },
      "chromium's DevTools port",
      10_000,
      50,
    );
    // The profile is fresh, so Lighthouse need not clear it (which would drop the cookies too).
    const result = await lighthouse(url, {
      port,
      onlyCategories: ['performance'],
      disableStorageReset: true,
      logLevel: 'error',
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
    // A page that sent the browser elsewhere (an expired session to the login page) is not the page
    // asked for; the browser's language may put a locale's prefix before it.
    const shown = new URL(lhr.finalDisplayedUrl).pathname;
    if (!shown.endsWith(new URL(url).pathname)) throw new Error(`Lighthouse was shown ${shown}, not ${url}`);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
      firstContentfulPaintMs: metric('first-contentful-paint'),
      largestContentfulPaintMs: metric('largest-contentful-paint'),
      totalBlockingTimeMs: metric('total-blocking-time'),
      speedIndexMs: metric('speed-index'),
      cumulativeLayoutShift: metric('cumulative-layout-shift'),
      longestTasks: longestTasks(lhr.audits),
    };
  } finally {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
}
