/**
 * The machine page's season chart ("Przebieg sezonu", issue 34 part 3), in headless Chromium
 * (Debian's, never a downloaded one) against the real server serving the built app: the third demo
 * machine (520 m, two crop areas, three watered sectors) simulated, its two crop areas each with a
 * season of about 180 days so far (a 200-day custom crop), a station's hourly weather with rain
 * every ninth day and a 20 mm pass every fourth, so that every zone's and sector's series is long.
 * Its goal: the chart drawn without a main-thread task of 50 ms, on a desktop and on a phone.
 *
 * Each cold load (`--loads`, median of them) records long tasks (PerformanceObserver 'longtask')
 * and long animation frames (with their scripts, to say which function made a miss):
 *
 * - (a) from navigation until the chart is drawn, and the part of it after the season's answer came;
 * - (b) while the chooser goes through every zone and sector, each drawn, and back to the first;
 * - (c) while the pointer goes over every day of the first zone's chart: moved on a desktop
 *   (1280×800), tapped on an emulated phone (support/phone.ts).
 *
 * The desktop's loads come first, then the phone's (`--phone 0`: the desktop alone). Figures are
 * printed beside the target "< 50 ms", never asserted.
 *
 *   npm run bench:web-season-chart [-- --loads 5] [--phone 0]   builds the web app, then runs this script
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  type CropSeason,
  type CustomCrop,
  type WaterBalanceSeasonArea,
  SprinklerDetailSchema,
  WaterBalanceSeasonSchema,
} from '@pivot/contracts';
import { CHROMIUM_LAUNCH_OPTIONS, DEBIAN_CHROMIUM } from '@pivot/e2e/support/chromium';
import { type Browser, type Page, chromium } from 'playwright-core';
import { seasonChartGeometry } from '../apps/web/src/features/advice/lib/season-chart';
import { coldContext } from './support/browser-context';
import { readOptions } from './support/cli';
import { type LongTasks, blame, longTasksBetween, recordLongTasks } from './support/long-tasks';
import { expectStatus, withSimulatedMachine } from './support/machine-setup';
import { PHONE_DESCRIPTION, emulatePhone } from './support/phone';
import {
  formatNumber,
  printFigure,
  printNote,
  printSection,
  printTargeted,
  printTitle,
  printVerdict,
} from './support/report';
import { runBenchmark } from './support/run';
import { passesEvery, storePasses, summerDayWeather } from './support/season-inputs';
import { median } from './support/stats';

const TARGET_TASK_MS = 50;
const DAY_MS = 86_400_000;
/** Days from the first crop's emergence through yesterday, the last complete day the chart shows. */
const SEASON_DAYS = 180;
/** The second crop area's crop emerged this many days after the first's: its chart differs. */
const SECOND_EMERGENCE_DAYS_LATER = 14;
/** A maize-like crop of 200 days (FAO-56 Table 11's lengths stretched): in the field for weeks more, foreseen days included. */
const LONG_CROP: CustomCrop = { kc: [0.3, 1.2, 0.6], stages: [30, 40, 70, 60], rootDepth: [0.15, 1.0], p: 0.55 };
const PASS_EVERY_DAYS = 4;
const PASS_MM = 20;

/** What the page shows, in Polish (the users' language and the browser's). */
const CHART_LABEL = 'Deficyt wody';
const DRAWN_TIMEOUT_MS = 60_000;
const WEB_APP = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

const options = readOptions({ loads: 5, phone: 1 }, ['phone']);

/** dd.mm.yyyy of a UTC midnight. */
function dotted(ms: number): string {
  const [year, month, day] = new Date(ms).toISOString().slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => formatNumber(load, 2))
    .join(' ');

// ---------------------------------------------------------------------------------------------
// In the browser

/**
 * Runs in the page before its own scripts: `__benchChartDrawn` resolves with the time of the first
 * animation frame that begins after a season chart (its SVG, labelled `label…`) holds its lines, so
 * that the frame holding it has been committed. Checked once an animation frame, never by polling.
 */
function watchChartDrawn(label: string): void {
  const drawn = new Promise<number>((resolve) => {
    let complete = false;
    const frame = () => {
      if (complete) {
        resolve(performance.now());
        return;
      }
      const chart = document.querySelector(`svg[role="img"][aria-label^="${label}"]`);
      // TAW, RAW and the measured depletion at least.
      complete = (chart?.querySelectorAll('path[d^="M"]').length ?? 0) >= 3;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  (window as unknown as { __benchChartDrawn: Promise<number> }).__benchChartDrawn = drawn;
}

/** The page's clock once the next animation frame has begun: what was changed before it has been committed. */
const afterNextFrame = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
      ),
  );

type ChartLoad = {
  drawnMs: number;
  /** When the season's answer had come, ms after navigation start. */
  seasonMs: number;
  loading: LongTasks;
  afterSeason: LongTasks;
  switching: LongTasks;
  pointing: LongTasks;
  /** The areas switched through and the days pointed at, to print beside the figures. */
  areas: number;
  days: number;
};

/** A cold load of the machine page until its chart is drawn, then every area chosen in turn, then every day pointed at. */
async function measureLoad(
  browser: Browser,
  baseUrl: string,
  email: string,
  pagePath: string,
  onPhone: boolean,
): Promise<ChartLoad> {
  const context = await coldContext(browser, baseUrl, email, onPhone);
  try {
    const page = await context.newPage();
    if (onPhone) await emulatePhone(page);
    await page.addInitScript(recordLongTasks);
    await page.addInitScript(watchChartDrawn, CHART_LABEL);
    const seasonAnswer = page.waitForResponse((response) =>
      new URL(response.url()).pathname.endsWith('/water-balance/season/'),
    );
    await page.goto(pagePath, { waitUntil: 'domcontentloaded' });
    const drawnMs = await page.evaluate(
      (timeoutMs) =>
        Promise.race([
          (window as unknown as { __benchChartDrawn: Promise<number> }).__benchChartDrawn,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
        ]),
      DRAWN_TIMEOUT_MS,
    );
    if (drawnMs === null) throw new Error(`the season chart was not drawn within ${DRAWN_TIMEOUT_MS / 1000} s`);
    const season = WaterBalanceSeasonSchema.parse(await (await seasonAnswer).json());
    const seasonMs = await page.evaluate(
      () =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) =>
          new URL(entry.name).pathname.endsWith('/water-balance/season/'),
        )?.responseEnd ?? Number.NaN,
    );
    const loading = await longTasksBetween(page, 0, drawnMs);
    const afterSeason = await longTasksBetween(page, seasonMs, drawnMs);

    const areas = [...season.zones.slice(1), ...season.sectors, season.zones[0]!];
    const switching = await switchThrough(page, areas);
    const pointing = await pointAtEveryDay(page, season.zones[0]!, onPhone);
    return {
      drawnMs,
      seasonMs,
      loading,
      afterSeason,
      switching,
      pointing,
      areas: areas.length,
      days: season.zones[0]!.depletion.length,
    };
  } finally {
    await context.close();
  }
}

const chartOf = (page: Page, area: WaterBalanceSeasonArea) =>
  page.locator(`svg[role="img"][aria-label^="${CHART_LABEL} ${area.name} od "]`);

/** (b): each area chosen in the chooser in turn, each chart drawn before the next is chosen. */
async function switchThrough(page: Page, areas: readonly WaterBalanceSeasonArea[]): Promise<LongTasks> {
  const chooser = page.getByRole('combobox', { name: 'Strefa uprawy lub sektor' });
  await chooser.scrollIntoViewIfNeeded();
  const from = await afterNextFrame(page);
  for (const area of areas) {
    await chooser.selectOption({ label: area.name });
    await chartOf(page, area).waitFor();
  }
  return longTasksBetween(page, from, await afterNextFrame(page));
}

/** (c): the pointer over the middle of every day of the area's chart, one after another: moved, or tapped on a phone. */
async function pointAtEveryDay(page: Page, area: WaterBalanceSeasonArea, onPhone: boolean): Promise<LongTasks> {
  const chart = chartOf(page, area);
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  // The chart's own geometry, at the width it was drawn at (its SVG's viewBox: a pixel a unit).
  const geometry = seasonChartGeometry(area, Math.round(box.width));
  const scale = box.width / geometry.width;
  const y = box.y + ((geometry.depletionTop + geometry.depletionBottom) / 2) * scale;
  const from = await afterNextFrame(page);
  for (let day = 0; day < geometry.days; day += 1) {
    const x = box.x + geometry.x(day) * scale;
    if (onPhone) await page.touchscreen.tap(x, y);
    else await page.mouse.move(x, y);
  }
  const tasks = await longTasksBetween(page, from, await afterNextFrame(page));
  // The last day's numbers are shown: the pointing reached the chart.
  await page
    .getByRole('tooltip')
    .filter({ hasText: dotted(lastDayOf(area)) })
    .waitFor({ timeout: 5000 });
  return tasks;
}

/** The area's last day (its UTC midnight). */
function lastDayOf(area: WaterBalanceSeasonArea): number {
  const [day, month, year] = area.firstDay.split('.').map(Number);
  return Date.UTC(year!, month! - 1, day!) + (area.depletion.length - 1) * DAY_MS;
}

// ---------------------------------------------------------------------------------------------
// The figures

const longestOf = (tasks: LongTasks) => (tasks.tasks.length === 0 ? 0 : Math.max(...tasks.tasks));

/**
 * A phase's long tasks over the loads: each load's longest and count, then the median load's
 * longest against the target and its count, and for a miss the script that ran longest.
 */
function printPhase(label: string, phases: readonly LongTasks[]): void {
  printFigure(
    `${label}, each load`,
    phases
      .map((phase) =>
        phase.tasks.length === 0 ? 'none' : `${formatNumber(longestOf(phase))} ms (${phase.tasks.length})`,
      )
      .join(', '),
  );
  const longest = phases.map(longestOf);
  const typicalLongest = median(longest);
  const count = median(phases.map((phase) => phase.tasks.length));
  if (typicalLongest === 0) {
    printVerdict(`${label}, longest`, 'none ≥ 50 ms', `< ${TARGET_TASK_MS} ms`, true);
    return;
  }
  printTargeted(`${label}, longest`, typicalLongest, 'ms', { below: TARGET_TASK_MS });
  printFigure(`${label}, tasks ≥ 50 ms`, `${formatNumber(count)} (median)`);
  const culprit = blame(phases[longest.indexOf(typicalLongest)]!.frames);
  if (culprit) printNote(`  its longest script: ${culprit}`);
}

async function measureDevice(browser: Browser, baseUrl: string, email: string, pagePath: string, onPhone: boolean) {
  const loads: ChartLoad[] = [];
  const loadBefore = loadAverage();
  for (let run = 0; run < options.loads; run += 1) {
    loads.push(await measureLoad(browser, baseUrl, email, pagePath, onPhone));
  }
  const { areas, days } = loads[0]!;
  printSection(
    `${onPhone ? `Emulated phone (${PHONE_DESCRIPTION}), taps` : 'Desktop (1280×800), pointer moves'}: ` +
      `${options.loads} cold loads; load average ${loadBefore} → ${loadAverage()}`,
  );
  printFigure(
    'chart drawn, ms after navigation',
    `${loads.map((load) => formatNumber(load.drawnMs)).join(', ')} (season answered at ${loads.map((load) => formatNumber(load.seasonMs)).join(', ')})`,
  );
  printPhase(
    '(a) navigation → drawn',
    loads.map((load) => load.loading),
  );
  printPhase(
    '(a) answer → drawn',
    loads.map((load) => load.afterSeason),
  );
  printPhase(
    `(b) ${areas} areas chosen`,
    loads.map((load) => load.switching),
  );
  printPhase(
    `(c) ${days} days ${onPhone ? 'tapped' : 'hovered'}`,
    loads.map((load) => load.pointing),
  );
}

const timeLimitMs = (180 + options.loads * (30 + (options.phone ? 90 : 0))) * 1000;

runBenchmark('web-season-chart', timeLimitMs, () =>
  withSimulatedMachine(
    options,
    1,
    async ({ server, machine, users }) => {
      const admin = await server.signInAdmin();
      const farmer = await server.signIn(users[0]!.email);
      const detail = SprinklerDetailSchema.parse(
        expectStatus(await admin.call('GET', `/api/sprinkler/${machine.sprinklerId}/`), 200, 'reading the machine'),
      );
      const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
      const firstDay = today - SEASON_DAYS * DAY_MS;
      const seasons: CropSeason[] = machine.demo.cropAreas.map((cropArea, index) => ({
        name: `${cropArea.name}, sezon długi`,
        polygon: cropArea.name,
        crop: LONG_CROP,
        emergence: dotted(firstDay + index * SECOND_EMERGENCE_DAYS_LATER * DAY_MS),
        soil: cropArea.soil,
      }));
      expectStatus(
        await admin.call('PUT', `/api/sprinkler/${machine.sprinklerId}/crop-seasons/`, seasons),
        200,
        'setting the crop seasons',
      );
      // The station's past before its first live reading, as the demo's history is stored.
      const { station } = machine;
      const readings = Array.from({ length: SEASON_DAYS + 1 }, (_, day) => summerDayWeather(firstDay, day, SEASON_DAYS))
        .flat()
        .filter((reading) => reading.ts < Date.now())
        .map((reading) => ({ ...reading, lat: station.lat, lng: station.lng }));
      const stored = await server.app.weather.recordHistory(station.id, detail.internalId, readings);
      const cells = await storePasses(
        server.app.database.db,
        detail.internalId,
        machine.demo.armLength,
        passesEvery(firstDay, SEASON_DAYS, PASS_EVERY_DAYS, PASS_MM),
      );
      const season = WaterBalanceSeasonSchema.parse(
        expectStatus(
          await farmer.call('GET', `/api/sprinkler/${machine.sprinklerId}/water-balance/season/`),
          200,
          'the season series',
        ),
      );
      if (season.reason) throw new Error(`the machine has no season series: ${season.reason}`);
      const areas = [...season.zones, ...season.sectors];
      printTitle('Web app: the season chart of the machine page (issue 34 part 3)', {
        machine: `${machine.demo.name}: ${machine.demo.armLength} m, ${formatNumber(cells)} cells, simulated`,
        season: `${seasons.map((cropSeason) => `${cropSeason.polygon} from ${cropSeason.emergence}`).join(', ')}; a ${PASS_MM} mm pass every ${PASS_EVERY_DAYS} days, ${formatNumber(stored)} hourly readings`,
        areas: areas.map((area) => `${area.name} ${area.depletion.length} days`).join(', '),
        browser: `headless Chromium (${DEBIAN_CHROMIUM}), pl-PL`,
        target: `no main-thread task ≥ ${TARGET_TASK_MS} ms`,
      });
      const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
      try {
        const pagePath = `/sprinklers/${machine.sprinklerId}`;
        await measureDevice(browser, server.baseUrl, users[0]!.email, pagePath, false);
        if (options.phone) await measureDevice(browser, server.baseUrl, users[0]!.email, pagePath, true);
      } finally {
        await browser.close();
      }
      printNote('');
      printNote(`Load average at the end: ${loadAverage()}`);
    },
    { pauseWaterAccounting: true, server: { webApp: WEB_APP } },
  ),
);
