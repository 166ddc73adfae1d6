/**
 * The web app's machine page, /sprinklers/{id}?history=01.04.2026-30.09.2026, for a machine that
 * runs a 50-sector program and has a season's watermap, in headless Chromium (Debian's, never a
 * downloaded one) against the real server serving the built app, the machine simulated and moving:
 *
 * - the time from navigation start to the first painted map (median of cold loads), target
 *   < 800 ms on this machine, quiet, and < 2.5 s on an emulated phone (`--phone`, support/phone.ts:
 *   the same loads again after the desktop ones, both printed);
 * - the longest main-thread task while the arm moves with telemetry every second, target < 50 ms;
 * - the JavaScript the page fetches, gzipped, and the part of it fetched before the map was
 *   painted, target ≤ 180 KB, beside that of /sprinklers (≤ 150 KB before its first machine
 *   showed) and /login (≤ 100 KB: the scripts its HTML names and what they import statically),
 *   and whether the chunk holding Leaflet is fetched by the machine page alone.
 *
 * - with `--lighthouse`, Lighthouse's mobile performance score of the machine page and of /login,
 *   target ≥ 90 (support/lighthouse.ts); `--audits N` audits each page N times and judges their median.
 *
 *   npm run bench:web-machine [-- --phone] [--lighthouse]   builds the web app, then runs this script
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Position, type ProgramBody, SprinklerDetailSchema, type SprinklerDetail } from '@pivot/contracts';
import { CHROMIUM_LAUNCH_OPTIONS, DEBIAN_CHROMIUM } from '@pivot/e2e/support/chromium';
import type { HttpSession } from '@pivot/e2e/support/http-session';
import { waterCellYears } from '@pivot/server/src/modules/watermap/watermap.table';
import { DEMO_MACHINES, type DemoMachine } from '@pivot/simulator';
import { count, eq, sql } from 'drizzle-orm';
import { type Browser, type Page, type Request, chromium } from 'playwright-core';
import type { BenchServer } from './support/bench-server';
import { coldContext } from './support/browser-context';
import { insertTelemetryColumns } from './support/bulk-insert';
import { readOptions } from './support/cli';
import { getBody } from './support/http';
import { expectStatus, offset, withSimulatedMachine } from './support/machine-setup';
import {
  formatNumber,
  printFigure,
  printNote,
  printSection,
  printTargeted,
  printTitle,
  printVerdict,
} from './support/report';
import { type MainThreadTime, type MainThreadProfile, profileMainThread } from './support/main-thread-profile';
import { auditPerformance } from './support/lighthouse';
import { type Loaf, blame, longTasksBetween, recordLongTasks } from './support/long-tasks';
import { PHONE_DESCRIPTION, emulatePhone } from './support/phone';
import { runBenchmark } from './support/run';
import { type TelemetryColumns, seasonTelemetry } from './support/season-telemetry';
import { median, sleep, timed, waitUntil } from './support/stats';

const TARGET_PAINT_MS = 800;
const TARGET_PHONE_PAINT_MS = 2500;
const TARGET_TASK_MS = 50;
const TARGET_MACHINE_PAGE_JS_KB = 180;
const TARGET_LIST_JS_KB = 150;
const TARGET_LOGIN_JS_KB = 100;
const TARGET_LIGHTHOUSE_SCORE = 90;

/** Where the arm turns: the first demo machine, 420 m, maize over the whole circle. */
const DEMO: DemoMachine = DEMO_MACHINES[0]!;
const SECTORS = 50;
/** Sectors reach a little past the arm (as the simulator's own programs do), so the tip never leaves them. */
const SECTOR_REACH = 1.05;
const ARC_STEP_DEGREES = 1.8;
const PROGRAM_NAME = `Sezon, ${SECTORS} sektorów`;
/** Twenty times faster than life: the arm turns visibly between two reports a second apart. */
const TIME_SCALE = 20;
const MOVING_TELEMETRY_MS = 1000;

/** The season: 1 April to 30 September 2026, local days in Poland (UTC+2 all season), the server's time zone. */
const SEASON_MONTHS = 6;
const SEASON_DAYS = 183;
const LOCAL_OFFSET_MS = 2 * 3_600_000;
const monthStart = (month: number) => Date.UTC(2026, 3 + month, 1) - LOCAL_OFFSET_MS;
const SEASON_END = monthStart(SEASON_MONTHS);
const HISTORY = '01.04.2026-30.09.2026';
const REPORT_INTERVAL_MS = 5000;
const DAY_MS = 86_400_000;
const INSERT_CHUNK = 50_000;

/** What the page shows, in Polish (the users' language and the browser's). */
const MAP_LABEL = 'Mapa pola';
const LOGIN_BUTTON = 'Zaloguj się';
const ARM_STROKE = '#f59e0b';
/** Scripts have settled when none is in flight and none was asked for during this long. */
const SCRIPTS_QUIET_MS = 1000;
const PAINT_TIMEOUT_MS = 30_000;
const WEB_APP = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

/**
 * `--days` of 5-second reports make the season. The whole season (183 days, 3.2 M reports)
 * takes about 4 minutes to store and count on PostgreSQL and 5 on PGlite here; 36 days keep the
 * benchmark within about two minutes. They are spread over the six months (the first days of
 * each), so the grid holds a row per cell and month as after a whole season, and the watermap
 * costs the server as much; the page draws the same cells.
 */
/** A flag given on the command line, taken off it so that readOptions sees only `--name value` pairs. */
function takeFlag(flag: string): boolean {
  const index = process.argv.indexOf(flag);
  if (index >= 0) process.argv.splice(index, 1);
  return index >= 0;
}
/** `--phone`: the first painted map is measured on an emulated phone too. */
const phone = takeFlag('--phone');
/** `--lighthouse`: Lighthouse's mobile performance audit of the machine page and of /login too. */
const lighthouseAudit = takeFlag('--lighthouse');
const options = readOptions({ days: 36, loads: 3, seconds: 20, audits: 1 });

type SeasonFigures = { reports: number; insertMs: number; accountingMs: number; gridRows: number };

/** Telemetry chunks for the season: one stretch of days at the start of each month, or all of it. */
function* seasonChunks(machine: DemoMachine): Generator<TelemetryColumns> {
  const whole = options.days >= SEASON_DAYS;
  const stretches = whole ? [{ start: monthStart(0), days: SEASON_DAYS }] : [];
  if (!whole) {
    for (let month = 0; month < SEASON_MONTHS; month += 1) {
      stretches.push({ start: monthStart(month), days: options.days / SEASON_MONTHS });
    }
  }
  for (const [index, stretch] of stretches.entries()) {
    yield* seasonTelemetry({
      machine: { armLength: machine.armLength, flow: machine.flow, topSpeed: 3 },
      start: stretch.start,
      count: Math.round((stretch.days * DAY_MS) / REPORT_INTERVAL_MS),
      intervalMs: REPORT_INTERVAL_MS,
      chunkSize: INSERT_CHUNK,
      seed: 7 + index,
    });
  }
}

/** Stores the season's reports for the machine and counts them into the water grid, as bench/watermap.ts does. */
async function storeSeason(server: BenchServer, machineId: string, machine: DemoMachine): Promise<SeasonFigures> {
  const { app } = server;
  const { db } = app.database;
  let reports = 0;
  const insertMs = await timed(async () => {
    for (const chunk of seasonChunks(machine)) {
      reports += chunk.ts.length;
      await insertTelemetryColumns(db, machineId, chunk);
    }
  });
  // Only the season: the machine's live reports of today stay for the periodic accounting.
  const accountingMs = await timed(() => app.waterAccounting.runOnce(new Date(SEASON_END)));
  const [grid] = await db.select({ rows: count() }).from(waterCellYears).where(eq(waterCellYears.machineId, machineId));
  // As in bench/watermap.ts: a server that has run a season has statistics on its grid.
  await db.execute(sql`analyze ${waterCellYears}`);
  // From now on the server counts what arrives every 15 s, as it always does.
  app.waterAccounting.start();
  return { reports, insertMs, accountingMs, gridRows: grid!.rows };
}

/** Fifty pie wedges round the machine's circle, doses between 6 and 25 mm. */
function fiftySectors(machine: DemoMachine): ProgramBody {
  const width = 360 / SECTORS;
  const reach = machine.armLength * SECTOR_REACH;
  const features = Array.from({ length: SECTORS }, (_, index) => {
    const from = index * width;
    const steps = Math.ceil(width / ARC_STEP_DEGREES);
    const arc = Array.from({ length: steps + 1 }, (_unused, step) => {
      const bearing = ((from + (width * step) / steps) * Math.PI) / 180;
      const point = offset(machine, reach * Math.cos(bearing), reach * Math.sin(bearing));
      return [point.lng, point.lat] satisfies Position;
    });
    const centre: Position = [machine.lng, machine.lat];
    return {
      type: 'Feature' as const,
      properties: { name: `Sektor ${String(index + 1).padStart(2, '0')}`, rate: 6 + ((index * 7) % 20) },
      geometry: { type: 'Polygon' as const, coordinates: [[centre, ...arc, centre]] },
    };
  });
  return { name: PROGRAM_NAME, programData: { type: 'FeatureCollection', features } };
}

async function readDetail(session: HttpSession, sprinklerId: number): Promise<SprinklerDetail> {
  return SprinklerDetailSchema.parse(
    expectStatus(await session.call('GET', `/api/sprinkler/${sprinklerId}/`), 200, 'reading the machine'),
  );
}

/** Stores the 50-sector program, sends it to the machine and waits until the machine reports running it. */
async function runFiftySectors(farmer: HttpSession, sprinklerId: number, machine: DemoMachine): Promise<void> {
  const base = `/api/sprinkler/${sprinklerId}/program`;
  const stored = SprinklerDetailSchema.parse(
    expectStatus(await farmer.call('POST', `${base}/`, fiftySectors(machine)), 201, 'storing the program'),
  );
  const program = stored.programs.find((candidate) => candidate.name === PROGRAM_NAME)!;
  expectStatus(await farmer.call('POST', `${base}/${program.id}/send/`), 200, 'sending the program');
  await waitUntil(
    async () => {
      const detail = await readDetail(farmer, sprinklerId);
      return detail.currentProgramData?.name === PROGRAM_NAME && detail.status === 'front';
    },
    'the machine to report running the program while moving',
    30_000,
    250,
  );
}

// ---------------------------------------------------------------------------------------------
// In the browser

/**
 * A script file: its size uncompressed and gzipped, whether it holds Leaflet, and the files it
 * imports statically (an `import`/`export … from` of another of the build's files, not `import()`).
 */
type Script = { file: string; bytes: number; gzipped: number; leaflet: boolean; imports: string[] };

/** The build's files a module imports or re-exports statically, by file name. */
function staticImports(body: string): string[] {
  const found = body.matchAll(/\b(?:from\s*|import\s*)["']\.{0,2}\/?(?:[\w-]+\/)*([\w.-]+\.js)["']/g);
  return [...new Set([...found].map((match) => match[1]!))];
}

/**
 * The scripts a page's HTML names (its `<script src>` and `<link rel="modulepreload">`) and all
 * they import statically, by file name: what its HTML makes the browser fetch for its first
 * screen whatever the timing, unlike what has arrived by a given frame.
 */
function namedByHtml(html: string, scripts: readonly Script[]): Set<string> {
  const named = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)];
  const files = new Set(named.map((match) => path.basename(match[1]!)));
  const byFile = new Map(scripts.map((script) => [script.file, script]));
  const pending = [...files];
  while (pending.length > 0) {
    for (const imported of byFile.get(pending.pop()!)?.imports ?? []) {
      if (files.has(imported)) continue;
      files.add(imported);
      pending.push(imported);
    }
  }
  return files;
}

/** Leaflet's own code: the class names it gives its panes and zoom control. */
const isLeaflet = (body: string) => body.includes('leaflet-pane') && body.includes('leaflet-control-zoom');

/**
 * Every script a page fetches, gzipped, and a way to wait until none is in flight or being asked
 * for. A script whose body can no longer be read (its page closed first) is left out.
 */
function trackScripts(page: Page) {
  const inFlight = new Set<Request>();
  let lastChange = performance.now();
  const scripts: Promise<Script | undefined>[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    inFlight.add(request);
    lastChange = performance.now();
  });
  const settle = (request: Request) => {
    if (inFlight.delete(request)) lastChange = performance.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      response.body().then(
        (body) => ({
          file: path.basename(new URL(response.url()).pathname),
          bytes: body.length,
          gzipped: gzipSync(body, { level: 9 }).length,
          leaflet: isLeaflet(body.toString('utf8')),
          imports: staticImports(body.toString('utf8')),
        }),
        () => undefined,
      ),
    );
  });
  return {
    settled: () =>
      waitUntil(
        () => inFlight.size === 0 && performance.now() - lastChange >= SCRIPTS_QUIET_MS,
        'the page to stop fetching scripts',
        30_000,
        100,
      ),
    all: async () => (await Promise.all(scripts)).filter((script) => script !== undefined),
  };
}

/** What the page script below keeps on window.__benchMap. */
type MapWatch = {
  painted: Promise<number>;
  /** What the map holds now, for a message when it is not painted in time. */
  state: () => string;
};

/**
 * Runs in the page before its own scripts. The map counts as painted once its region holds the
 * arm and at least `sectors` other SVG paths and the watermap's image (one pixel per grid cell,
 * `img.watermap-image`), that image is decoded, and one more animation frame has begun: the
 * frame holding all of it has been committed. Checked once an animation frame (a few
 * querySelector calls), never by polling.
 */
function watchMapPaint(setting: { label: string; sectors: number; arm: string }): void {
  const parts = () => {
    const region = document.querySelector(`[role="region"][aria-label="${setting.label}"]`);
    const pane = region?.querySelector('.leaflet-overlay-pane');
    return {
      paths: pane?.querySelectorAll('svg path').length ?? 0,
      arm: pane?.querySelector(`path[stroke="${setting.arm}"]`) ?? null,
      watermap: pane?.querySelector<HTMLImageElement>('img.watermap-image') ?? null,
    };
  };
  const drawn = (image: HTMLImageElement) => image.complete && image.naturalWidth > 0;
  const painted = new Promise<number>((resolve) => {
    let complete = false;
    const frame = () => {
      const now = performance.now();
      const { paths, arm, watermap } = parts();
      if (complete && watermap && drawn(watermap)) {
        resolve(now);
        return;
      }
      complete = arm !== null && watermap !== null && paths - 1 >= setting.sectors;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const state = () => {
    const { paths, arm, watermap } = parts();
    return `${paths} SVG paths, arm ${arm ? 'drawn' : 'missing'}, watermap image ${watermap ? `${watermap.naturalWidth}×${watermap.naturalHeight}` : 'missing'}`;
  };
  const watch: MapWatch = { painted, state };
  (window as unknown as { __benchMap: MapWatch }).__benchMap = watch;
}

/** When the page had its session, and asked for and got the machine's detail and its watermap, ms after navigation start. */
type Milestones = { session: number; detail: [number, number]; watermap: [number, number] };
type MachineLoad = {
  paintMs: number;
  scripts: Script[];
  milestones: Milestones;
  /** What the map held when it was painted. */
  drawn: string;
  /** Long tasks and long frames before the map was painted. */
  tasks: number[];
  frames: Loaf[];
  page: Page;
  /** The main thread's CPU profile up to the paint, for a load asked to be profiled. */
  profile?: MainThreadProfile;
  /** The script files whose answer had arrived when the map was painted. */
  beforePaint: string[];
  /** Every file and call answered before the map was painted, in the order asked for. */
  waterfall: { name: string; span: [number, number] }[];
};

/** A cold load of the machine page up to its first painted map, and until its scripts have settled. */
async function loadMachinePage(
  browser: Browser,
  baseUrl: string,
  email: string,
  pagePath: string,
  { profiled = false, onPhone = false } = {},
): Promise<MachineLoad> {
  const context = await coldContext(browser, baseUrl, email, onPhone);
  const page = await context.newPage();
  if (onPhone) await emulatePhone(page);
  await page.addInitScript(recordLongTasks);
  await page.addInitScript(watchMapPaint, { label: MAP_LABEL, sectors: SECTORS, arm: ARM_STROKE });
  const scripts = trackScripts(page);
  const profiler = profiled ? await profileMainThread(page) : undefined;
  await page.goto(pagePath, { waitUntil: 'domcontentloaded' });
  // The page's own timer gives up waiting, so nothing is left pending here when the map is painted.
  const paintMs = await page.evaluate(
    (timeoutMs) =>
      Promise.race([
        (window as unknown as { __benchMap: MapWatch }).__benchMap.painted,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
      ]),
    PAINT_TIMEOUT_MS,
  );
  if (paintMs === null) {
    const state = await page.evaluate(() => (window as unknown as { __benchMap: MapWatch }).__benchMap.state());
    throw new Error(`the map was not painted within ${PAINT_TIMEOUT_MS / 1000} s: ${state}`);
  }
  const profile = await profiler?.stop();
  const drawn = await page.evaluate(() => (window as unknown as { __benchMap: MapWatch }).__benchMap.state());
  await scripts.settled();
  const { tasks, frames } = await longTasksBetween(page, 0, paintMs);
  const { milestones, beforePaint, waterfall } = await page.evaluate((painted) => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const span = (pattern: RegExp): [number, number] => {
      const entry = resources.find((resource) => pattern.test(new URL(resource.name).pathname));
      return entry ? [entry.startTime, entry.responseEnd] : [Number.NaN, Number.NaN];
    };
    return {
      milestones: {
        session: span(/\/user\/refresh-token\/$/)[1],
        detail: span(/\/sprinkler\/\d+\/$/),
        watermap: span(/\/watermap\/$/),
      },
      beforePaint: resources
        .filter((resource) => resource.initiatorType === 'script' || resource.name.endsWith('.js'))
        .filter((resource) => resource.responseEnd <= painted)
        .map((resource) => new URL(resource.name).pathname.split('/').at(-1)!),
      waterfall: resources
        .filter((resource) => resource.responseEnd <= painted)
        .sort((a, b) => a.startTime - b.startTime)
        .map((resource) => ({
          name: new URL(resource.name).pathname.split('/').filter(Boolean).at(-1) ?? resource.name,
          span: [resource.startTime, resource.responseEnd] as [number, number],
        })),
    };
  }, paintMs);
  return {
    paintMs,
    scripts: await scripts.all(),
    milestones,
    drawn,
    tasks,
    frames,
    page,
    profile,
    beforePaint,
    waterfall,
  };
}

/**
 * Runs in the page before its own scripts: resolves `__benchShown` with the time of the first
 * animation frame that begins after an element of the tag holding the text is in the page (the
 * frame that paints it has been committed). Checked on every change of the page, never by polling.
 */
function watchShown(setting: { tag: string; text: string }): void {
  const shown = new Promise<number>((resolve) => {
    const present = () =>
      [...document.querySelectorAll(setting.tag)].some((element) => element.textContent?.includes(setting.text));
    const observer = new MutationObserver(() => {
      if (!present()) return;
      observer.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
  (window as unknown as { __benchShown: Promise<number> }).__benchShown = shown;
}

/**
 * The scripts of a cold load of a page, once the page shows what `ready` waits for and its scripts
 * have settled, and those of them that had arrived when the page painted the element of `tag`
 * holding `text` (watchShown).
 */
async function scriptsOf(
  browser: Browser,
  baseUrl: string,
  email: string | undefined,
  pagePath: string,
  shown: { tag: string; text: string },
  ready: (page: Page) => Promise<void>,
): Promise<{ scripts: Script[]; beforePaint: Set<string>; html: string }> {
  const context = await coldContext(browser, baseUrl, email);
  try {
    const page = await context.newPage();
    await page.addInitScript(watchShown, shown);
    const scripts = trackScripts(page);
    const response = await page.goto(pagePath, { waitUntil: 'domcontentloaded' });
    const html = (await response?.text()) ?? '';
    await ready(page);
    const beforePaint = await page.evaluate(async () => {
      const painted = await (window as unknown as { __benchShown: Promise<number> }).__benchShown;
      return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((resource) => resource.initiatorType === 'script' || resource.name.endsWith('.js'))
        .filter((resource) => resource.responseEnd <= painted)
        .map((resource) => new URL(resource.name).pathname.split('/').at(-1)!);
    });
    await scripts.settled();
    return { scripts: await scripts.all(), beforePaint: new Set(beforePaint), html };
  } finally {
    await context.close();
  }
}

type MovingArm = { redraws: number; tasks: number[]; frames: Loaf[]; scriptMs: number };

/** The main thread's time in script so far (Chromium's own count), in ms. */
async function scriptTimeMs(metrics: () => Promise<{ metrics: { name: string; value: number }[] }>): Promise<number> {
  const { metrics: values } = await metrics();
  return (values.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0) * 1000;
}

/**
 * Watches the painted page for `seconds` while telemetry moves the arm: long tasks, long frames,
 * arm redraws, and the main thread's time in script meanwhile (what each report costs the page,
 * however short its tasks).
 */
async function watchMovingArm(page: Page): Promise<MovingArm> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = () => cdp.send('Performance.getMetrics');
  const scriptBefore = await scriptTimeMs(metrics);
  const since = await page.evaluate((arm) => {
    const counter = window as unknown as { __benchArmRedraws: number };
    counter.__benchArmRedraws = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        if ((record.target as Element).getAttribute('stroke') === arm) counter.__benchArmRedraws += 1;
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['d'] });
    return performance.now();
  }, ARM_STROKE);
  await sleep(options.seconds * 1000);
  const redraws = await page.evaluate(() => (window as unknown as { __benchArmRedraws: number }).__benchArmRedraws);
  const scriptMs = (await scriptTimeMs(metrics)) - scriptBefore;
  return { redraws, scriptMs, ...(await longTasksBetween(page, since)) };
}

const kb = (bytes: number) => `${formatNumber(bytes / 1024, 1)} KB`;
const total = (scripts: readonly Script[]) => scripts.reduce((sum, script) => sum + script.gzipped, 0);

/**
 * The median load's milestones, every file and call it fetched before the map was painted
 * (asked for → answered, ms after navigation start: what waited for what), and its long tasks.
 */
function printMedianLoad(load: MachineLoad): void {
  const span = ([from, to]: [number, number]) => `${formatNumber(from)}–${formatNumber(to)}`;
  const { milestones } = load;
  printFigure(
    'median load, ms after navigation',
    `session ${formatNumber(milestones.session)}, detail ${span(milestones.detail)}, watermap ${span(milestones.watermap)}, painted ${formatNumber(load.paintMs)}`,
  );
  printFigure(
    'its files and calls, asked → answered',
    load.waterfall.map(({ name, span: times }) => `${name.replace(/-[\w-]{8}\.js$/, '.js')} ${span(times)}`).join(', '),
  );
  printFigure(
    'median load: long tasks before it',
    load.tasks.length === 0
      ? 'none ≥ 50 ms'
      : `${load.tasks.length}, longest ${formatNumber(Math.max(...load.tasks))} ms, ${formatNumber(load.tasks.reduce((a, b) => a + b, 0))} ms in all`,
  );
}

/** The median of `--loads` cold loads of the machine page on an emulated phone, with its milestones. */
async function measurePhonePaint(browser: Browser, baseUrl: string, email: string, machinePath: string): Promise<void> {
  const loads: MachineLoad[] = [];
  for (let run = 0; run < options.loads; run += 1) {
    const load = await loadMachinePage(browser, baseUrl, email, machinePath, { onPhone: true });
    await load.page.context().close();
    loads.push(load);
  }
  const paints = loads.map((load) => load.paintMs);
  const typical = loads.find((load) => load.paintMs === median(paints))!;
  printSection(`First painted map on an emulated phone (${PHONE_DESCRIPTION}), ${options.loads} cold loads`);
  printFigure('loads', paints.map((ms) => `${formatNumber(ms)} ms`).join(', '));
  printMedianLoad(typical);
  printTargeted('first painted map on the phone, median', median(paints), 'ms', { below: TARGET_PHONE_PAINT_MS });
  const loadBlame = blame(typical.frames);
  if (loadBlame) printNote(`Longest script before the map was painted: ${loadBlame}`);
}

/** The largest parts of `time`, the rest added up: `a 120 ms, b 80 ms, … 30 ms more`. */
function largestParts(time: MainThreadTime, parts = 6): string {
  const rest = time.slice(parts).reduce((sum, [, ms]) => sum + ms, 0);
  const shown = time.slice(0, parts).map(([what, ms]) => `${what} ${formatNumber(ms)}`);
  return `${shown.join(', ')}${rest > 0 ? `, ${formatNumber(rest)} more` : ''} (ms)`;
}

/**
 * Where the main thread's time went in one more load, profiled (the measured loads are not:
 * sampling slows a page a little): up to the moment both the detail and the watermap were
 * answered, and from then to the painted map.
 */
async function printWhereTheLoadGoes(load: MachineLoad): Promise<void> {
  await load.page.context().close();
  const dataAt = Math.max(load.milestones.detail[1], load.milestones.watermap[1]);
  printSection(
    `Where the main thread's time goes: one more load, profiled, painted at ${formatNumber(load.paintMs)} ms`,
  );
  printFigure(`→ data answered (${formatNumber(dataAt)} ms)`, largestParts(load.profile!.between(0, dataAt)));
  printFigure(
    `data → painted (${formatNumber(load.paintMs - dataAt)} ms)`,
    largestParts(load.profile!.between(dataAt, load.paintMs)),
  );
}

/** Lighthouse's mobile performance audit of /login and of the machine page, signed in, each a first visit. */
async function auditWithLighthouse(
  browser: Browser,
  baseUrl: string,
  email: string,
  machinePath: string,
): Promise<void> {
  printSection('Lighthouse 12, performance, its mobile profile (simulated: CPU ×4 slower, slow 4G)');
  // A session of its own for each audit: its refresh token is used once, and a replayed one would
  // end the session and show the login page instead.
  const signedInCookies = async () => {
    const signedIn = await coldContext(browser, baseUrl, email);
    const cookies = await signedIn.cookies();
    await signedIn.close();
    return cookies;
  };
  for (const [label, url, cookies] of [
    ['/login', `${baseUrl}/login`, async () => []],
    ['machine page', `${baseUrl}${machinePath}`, signedInCookies],
  ] as const) {
    const scores: number[] = [];
    for (let round = 1; round <= options.audits; round += 1) {
      const audit = await auditPerformance(url, await cookies());
      scores.push(audit.score);
      const name = options.audits === 1 ? label : `${label} (${round})`;
      printFigure(
        `${name}: metrics`,
        `FCP ${formatNumber(audit.firstContentfulPaintMs)} ms, LCP ${formatNumber(audit.largestContentfulPaintMs)} ms, ` +
          `TBT ${formatNumber(audit.totalBlockingTimeMs)} ms, SI ${formatNumber(audit.speedIndexMs)} ms, ` +
          `CLS ${formatNumber(audit.cumulativeLayoutShift, 3)}, score ${audit.score}`,
      );
      printFigure(
        `${name}: longest tasks`,
        audit.longestTasks
          .map((task) => `${task.url} ${formatNumber(task.durationMs)} ms at ${formatNumber(task.startMs)}`)
          .join(', '),
      );
    }
    // Its simulation scales what one load took on this machine: a score varies by ten points
    // between audits of the same build, and the median of a few says more than any one.
    printTargeted(`${label}: score${options.audits === 1 ? '' : ', median'}`, median(scores), '', {
      atLeast: TARGET_LIGHTHOUSE_SCORE,
    });
  }
}

async function measurePages(server: BenchServer, email: string, detail: SprinklerDetail): Promise<void> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    const machinePath = `/sprinklers/${detail.id}?history=${HISTORY}`;
    const loads: MachineLoad[] = [];
    for (let run = 0; run < options.loads; run += 1) {
      const load = await loadMachinePage(browser, server.baseUrl, email, machinePath);
      loads.push(load);
      // The last page stays open: the arm is watched moving on it.
      if (run < options.loads - 1) await load.page.context().close();
    }
    const paints = loads.map((load) => load.paintMs);
    const typical = loads.find((load) => load.paintMs === median(paints))!;
    printSection(`First painted map: ${machinePath}, ${options.loads} cold ${options.loads === 1 ? 'load' : 'loads'}`);
    printFigure('loads', paints.map((ms) => `${formatNumber(ms)} ms`).join(', '));
    printFigure('map drawn', typical.drawn);
    printMedianLoad(typical);
    printTargeted('first painted map, median', median(paints), 'ms', { below: TARGET_PAINT_MS });
    const loadBlame = blame(typical.frames);
    if (loadBlame) printNote(`Longest script before the map was painted: ${loadBlame}`);
    await printWhereTheLoadGoes(await loadMachinePage(browser, server.baseUrl, email, machinePath, { profiled: true }));

    if (phone) await measurePhonePaint(browser, server.baseUrl, email, machinePath);
    if (lighthouseAudit) await auditWithLighthouse(browser, server.baseUrl, email, machinePath);

    const last = loads.at(-1)!;
    const moving = await watchMovingArm(last.page);
    await last.page.context().close();
    printSection(`Arm moving: ${options.seconds} s on the last page, telemetry every ${MOVING_TELEMETRY_MS / 1000} s`);
    printFigure('arm redrawn', `${moving.redraws} times`);
    printFigure(
      'time in script meanwhile',
      `${formatNumber(moving.scriptMs)} ms, ${formatNumber(moving.scriptMs / Math.max(1, moving.redraws))} ms a redraw`,
    );
    const longest = moving.tasks.length === 0 ? 0 : Math.max(...moving.tasks);
    printVerdict(
      'longest main-thread task',
      moving.tasks.length === 0 ? 'none ≥ 50 ms' : `${formatNumber(longest)} ms (${moving.tasks.length} ≥ 50 ms)`,
      `< ${TARGET_TASK_MS} ms`,
      moving.tasks.length === 0 || longest < TARGET_TASK_MS,
    );
    const movingBlame = blame(moving.frames);
    if (movingBlame) printNote(`Longest script while moving: ${movingBlame}`);
    if (moving.redraws === 0) printNote('The arm did not move: the long-task figure says nothing about redrawing it.');

    const list = await scriptsOf(
      browser,
      server.baseUrl,
      email,
      '/sprinklers',
      { tag: 'a', text: detail.name },
      (page) => page.getByRole('link', { name: detail.name }).waitFor(),
    );
    const loginLoad = await scriptsOf(
      browser,
      server.baseUrl,
      undefined,
      '/login',
      { tag: 'button', text: LOGIN_BUTTON },
      (page) => page.getByRole('button', { name: LOGIN_BUTTON }).waitFor(),
    );
    // /login's form is painted by its HTML (rendered at build time): which of its preloaded
    // scripts have arrived by the frame after its button showed is a race on the loopback (0.8 to
    // 115 KB in runs of the same build). What its HTML makes the browser fetch for that first
    // screen (the scripts and preloads it names and what they import statically) is not.
    const login = { scripts: loginLoad.scripts, beforePaint: namedByHtml(loginLoad.html, loginLoad.scripts) };
    const machine = { scripts: typical.scripts, beforePaint: new Set<string>(typical.beforePaint) };
    printSection('JavaScript fetched on a cold load, gzipped (until the page shows and its scripts have settled)');
    for (const [label, { scripts }] of [
      ['machine page', machine],
      ['/sprinklers (list, no map)', list],
      ['/login', login],
    ] as const) {
      const leaflet = scripts.find((script) => script.leaflet);
      const served = scripts.reduce((sum, script) => sum + script.bytes, 0);
      printFigure(
        label,
        `${kb(total(scripts))} (${kb(served)} uncompressed), ${scripts.length} files, ${leaflet ? `Leaflet in ${leaflet.file} (${kb(leaflet.gzipped)})` : 'no Leaflet'}`,
      );
    }
    // Issue 24's goals count what a page fetches before its first paint: the machine page's map,
    // the list's first machine, the login form's button (the rest is fetched after it).
    const beforePaint = ({ scripts, beforePaint: painted }: typeof machine) =>
      scripts.filter((script) => painted.has(script.file));
    const afterPaint = ({ scripts, beforePaint: painted }: typeof machine) =>
      scripts.filter((script) => !painted.has(script.file));
    for (const [label, page] of [
      ['machine page, before its map', machine],
      ['/sprinklers, before it showed', list],
      ['/login, what its HTML loads', login],
    ] as const) {
      const after = afterPaint(page);
      printFigure(
        label,
        `${kb(total(beforePaint(page)))}, ${beforePaint(page).length} files; after it: ${
          after.length === 0 ? 'none' : after.map((script) => `${script.file} ${kb(script.gzipped)}`).join(', ')
        }`,
      );
    }
    printFigure(
      '  its files before the map',
      [...beforePaint(machine)]
        .sort((a, b) => b.gzipped - a.gzipped)
        .map((script) => `${script.file} ${kb(script.gzipped)}`)
        .join(', '),
    );
    printTargeted(
      'machine page before its map',
      total(beforePaint(machine)) / 1024,
      'KB',
      { atMost: TARGET_MACHINE_PAGE_JS_KB },
      1,
    );
    printTargeted(
      '/sprinklers before it showed',
      total(beforePaint(list)) / 1024,
      'KB',
      { atMost: TARGET_LIST_JS_KB },
      1,
    );
    printTargeted(
      '/login, what its HTML loads',
      total(beforePaint(login)) / 1024,
      'KB',
      { atMost: TARGET_LOGIN_JS_KB },
      1,
    );
    const mapOnly =
      loads.every((load) => load.scripts.some((script) => script.leaflet)) &&
      !list.scripts.some((script) => script.leaflet) &&
      !login.scripts.some((script) => script.leaflet);
    printVerdict(
      'Leaflet chunk',
      mapOnly ? 'machine page only' : 'not as expected',
      'only where a map is shown',
      mapOnly,
    );
    const largest = [...machine.scripts].sort((a, b) => b.gzipped - a.gzipped).slice(0, 4);
    printNote(
      `Largest on the machine page: ${largest.map((script) => `${script.file} ${kb(script.gzipped)}`).join(', ')}`,
    );
  } finally {
    await browser.close();
  }
}

/** The run's time limit: the season's setup, then each load and check, Lighthouse's audits with `--lighthouse`. */
const timeLimitMs =
  (150 +
    3 * options.days +
    options.seconds +
    (phone ? 30 : 15) * options.loads +
    (lighthouseAudit ? 180 * options.audits : 0)) *
  1000;

runBenchmark('web-machine', timeLimitMs, () =>
  withSimulatedMachine(
    options,
    1,
    async ({ server, machine, users }) => {
      const farmer = await server.signIn(users[0]!.email);
      const before = await readDetail(farmer, machine.sprinklerId);
      printTitle("Web app: the machine page with 50 sectors and a season's watermap", {
        broker: server.setting.broker,
        database: server.setting.database,
        machine: `${DEMO.name}: ${DEMO.armLength} m, simulated ×${TIME_SCALE}, moving, telemetry every ${MOVING_TELEMETRY_MS / 1000} s`,
        season: `${options.days >= SEASON_DAYS ? SEASON_DAYS : options.days} days of 5-second reports${options.days >= SEASON_DAYS ? '' : ` (${formatNumber(options.days / SEASON_MONTHS, 1)} at the start of each month)`}, April–September 2026`,
        browser: `headless Chromium (${DEBIAN_CHROMIUM}), 1280×800, pl-PL${phone ? `; and an emulated phone: ${PHONE_DESCRIPTION}` : ''}`,
      });
      const season = await storeSeason(server, before.internalId, DEMO);
      printFigure(
        'generated and inserted',
        `${formatNumber(season.insertMs / 1000, 1)} s (${formatNumber(season.reports)} reports, ${formatNumber((season.reports / season.insertMs) * 1000)} reports/s)`,
      );
      printFigure(
        'water accounting of the season',
        `${formatNumber(season.accountingMs / 1000, 1)} s (${formatNumber((season.reports / season.accountingMs) * 1000)} reports/s)`,
      );
      printFigure('grid rows (cell × year)', formatNumber(season.gridRows));
      const [start, stop] = HISTORY.split('-');
      const watermapPath = `/api/sprinkler/${machine.sprinklerId}/watermap/?start=${start}&stop=${stop}`;
      let answer = '';
      const answerMs = await timed(async () => {
        answer = await getBody(server.baseUrl, watermapPath, farmer.access);
      });
      const cells = (JSON.parse(answer) as { data: unknown[] }).data.length;
      printFigure(
        'watermap of the season',
        `${formatNumber(cells)} cells, ${kb(Buffer.byteLength(answer))} of JSON, ${formatNumber(answerMs)} ms (one GET from Node)`,
      );

      await runFiftySectors(farmer, machine.sprinklerId, DEMO);
      await measurePages(server, users[0]!.email, await readDetail(farmer, machine.sprinklerId));
    },
    {
      demo: DEMO,
      timeScale: TIME_SCALE,
      intervals: { movingTelemetryMs: MOVING_TELEMETRY_MS },
      pauseWaterAccounting: true,
      server: { webApp: WEB_APP },
    },
  ),
);
