import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { MACHINE_LIMITS } from '@pivot/contracts';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type DatabaseHandle, openPglite } from '../../src/db/client';
import { reportsBetween, reportsOfMachinesBetween } from '../../src/modules/telemetry/telemetry.repository';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { WATER_GRID_STEP_M, WaterAccounting } from '../../src/modules/watermap/water-accounting';
import { waterCellYears } from '../../src/modules/watermap/watermap.table';
import { createTestDatabase } from '../support/database';

const START = Date.UTC(2026, 4, 12, 6);
const REPORT_EVERY_MS = 5_000;
const LONGEST_ARM_M = MACHINE_LIMITS.armLengthM;

type Report = { ts: number; angle: number; distance: number; flow: number };

/** Reports every 5 s from START, the arm turning by each of the steps in turn (degrees, + clockwise). */
function turning(steps: number[], options: { distance: number; flow: number }): Report[] {
  const reports: Report[] = [];
  let angle = 10;
  for (let index = 0; index <= steps.length; index += 1) {
    reports.push({ ts: START + index * REPORT_EVERY_MS, angle: (angle + 360) % 360, ...options });
    angle += steps[index] ?? 0;
  }
  return reports;
}

/** Degrees the arm sweeps in 5 s, its end at `distance` moving at the given speed (m/s). */
function degreesInFiveSeconds(distance: number, tipSpeedMPerS: number): number {
  const metres = tipSpeedMPerS * (REPORT_EVERY_MS / 1000);
  return ((metres / distance) * 180) / Math.PI;
}

/**
 * The embedded database as a server opens it, in a folder: the in-memory copy the other tests
 * use grows a table by copying its whole file, a pause of tens of ms a server never has.
 * PostgreSQL when DATABASE_URL names one, as for the other tests.
 */
async function openServerDatabase(): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return createTestDatabase();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-water-'));
  const image = new Blob([await readFile(inject('pgliteTemplatePath'))]);
  const handle = await openPglite(new PGlite(folder, { loadDataDir: image }));
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Where Linux tells the CPU time of this process's main thread, which runs this test's event loop. */
const MAIN_THREAD_SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;

/**
 * CPU time the event loop's thread has run, ms (to a scheduler tick). Where Linux does not tell
 * it, the whole process's stands in, which counts the garbage collector's helper threads too.
 */
function eventLoopCpuMs(): number {
  if (isMainThread && existsSync(MAIN_THREAD_SCHEDSTAT)) {
    return Number(readFileSync(MAIN_THREAD_SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The longest the event loop went without a turn while the work ran, as CPU time it spent
 * meanwhile: on a loaded machine other processes hold the whole process back and stretch the
 * wall-clock gaps, but not this.
 */
async function longestBlockMs(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let since = eventLoopCpuMs();
  const turn = () => {
    const now = eventLoopCpuMs();
    longest = Math.max(longest, now - since);
    since = now;
  };
  const probe = setInterval(turn, 1);
  try {
    await work();
  } finally {
    clearInterval(probe);
  }
  // Work that never let the loop turn shows only here.
  turn();
  return longest;
}

describe('the water accounting', () => {
  let database: DatabaseHandle;
  let machines = 0;
  beforeAll(async () => {
    database = await openServerDatabase();
  });
  afterAll(() => database.close());

  async function machineWith(reports: Report[]) {
    machines += 1;
    const machineId = `WATER-${machines}`;
    const { db } = database;
    let latest = 0;
    const store = async (more: Report[]) => {
      for (let offset = 0; offset < more.length; offset += 2000) {
        const rows = more.slice(offset, offset + 2000).map((report) => ({
          machineId,
          ts: new Date(report.ts),
          status: 'front' as const,
          angle: report.angle,
          distance: report.distance,
          speed: 100,
          pressure: 2.5,
          flow: report.flow,
        }));
        await db.insert(telemetry).values(rows);
      }
      latest = more.at(-1)!.ts;
    };
    await store(reports);
    const logger = pino({ level: 'silent' });
    /** Counting as one server instance does, this machine only (each test has its own). */
    const instance = () => {
      const accounting = new WaterAccounting({
        db,
        sprinklers: { machineIds: () => Promise.resolve([machineId]) },
        // Report rows only: no day of these machines is packed.
        reports: { between: reportsBetween, firstPages: reportsOfMachinesBetween },
        timeZone: 'Europe/Warsaw',
        logger,
      });
      return () => accounting.runOnce(new Date(latest));
    };
    return {
      machineId,
      store,
      count: instance(),
      instance,
      /** m³ on the machine's grid. */
      volume: async () => {
        const [row] = await db
          .select({
            mm: sql<number>`coalesce(sum((select sum(water.mm::float8) from unnest(${waterCellYears.mm}) as water(mm))), 0)::float8`,
          })
          .from(waterCellYears)
          .where(eq(waterCellYears.machineId, machineId));
        return (Number(row!.mm) / 1000) * WATER_GRID_STEP_M * WATER_GRID_STEP_M;
      },
      warn: vi.spyOn(logger, 'warn'),
    };
  }

  it("keeps the water balance of a full circle at a real pivot's pace", async () => {
    // A 400 m arm whose end tower drives 3 m/min: 838 minutes round, reported every 5 s.
    const degrees = degreesInFiveSeconds(400, 0.05);
    const steps = Array.from({ length: Math.ceil(360 / degrees) }, () => degrees);
    const machine = await machineWith(turning(steps, { distance: 400, flow: 90 }));
    await machine.count();
    const hours = (steps.length * REPORT_EVERY_MS) / 3_600_000;
    expect(Math.abs((await machine.volume()) / (90 * hours) - 1)).toBeLessThan(0.01);
  });

  it('counts each report once while several instances count the same machine', async () => {
    // A 300 m arm at a real pivot's pace for 35 hours: more reports than one round counts.
    const degrees = degreesInFiveSeconds(300, 0.05);
    const steps = Array.from({ length: 25_000 }, () => degrees);
    const machine = await machineWith(turning(steps, { distance: 300, flow: 90 }));
    // Each reads the progress, counts a round and writes it only if the progress is still the same.
    await Promise.all([machine.count(), machine.instance()(), machine.instance()()]);
    await machine.count();
    const hours = (steps.length * REPORT_EVERY_MS) / 3_600_000;
    expect(Math.abs((await machine.volume()) / (90 * hours) - 1)).toBeLessThan(0.01);
  }, 120_000);

  it('counts the machines of a run together, each its own water once, while other instances count some of them', async () => {
    // Three machines at a real pivot's pace for 10 hours (several rounds each), one at rest.
    const degrees = degreesInFiveSeconds(300, 0.05);
    const steps = Array.from({ length: 7200 }, () => degrees);
    const watering = await Promise.all([1, 2, 3].map(() => machineWith(turning(steps, { distance: 300, flow: 90 }))));
    const resting = await machineWith(
      turning(
        Array.from({ length: 720 }, () => 0),
        { distance: 300, flow: 0 },
      ),
    );
    const fleet = [...watering, resting];
    const latest = new Date(START + steps.length * REPORT_EVERY_MS);
    const all = new WaterAccounting({
      db: database.db,
      sprinklers: { machineIds: () => Promise.resolve(fleet.map((machine) => machine.machineId)) },
      reports: { between: reportsBetween, firstPages: reportsOfMachinesBetween },
      timeZone: 'Europe/Warsaw',
      logger: pino({ level: 'silent' }),
    });
    await Promise.all([all.runOnce(latest), watering[0]!.count(), watering[2]!.instance()(), resting.count()]);
    await all.runOnce(latest);
    const hours = (steps.length * REPORT_EVERY_MS) / 3_600_000;
    for (const machine of watering) {
      expect(Math.abs((await machine.volume()) / (90 * hours) - 1)).toBeLessThan(0.01);
    }
    expect(await resting.volume()).toBe(0);
  }, 120_000);

  it('moves the progress of a machine at rest once, while several instances count it, and counts its water once it waters', async () => {
    // An hour at rest with its water off (no water: only the progress moves), then an hour turning.
    const degrees = degreesInFiveSeconds(300, 0.05);
    const resting = turning(
      Array.from({ length: 720 }, () => 0),
      { distance: 300, flow: 0 },
    );
    const machine = await machineWith(resting);
    await Promise.all([machine.count(), machine.instance()(), machine.instance()()]);
    expect(await machine.volume()).toBe(0);
    const watering = turning(
      Array.from({ length: 720 }, () => degrees),
      { distance: 300, flow: 90 },
    ).map((report) => ({ ...report, ts: report.ts + 720 * REPORT_EVERY_MS }));
    // The first report of the turn is the last one at rest: stored once.
    await machine.store(watering.slice(1));
    await Promise.all([machine.count(), machine.instance()(), machine.instance()()]);
    await machine.count();
    const hours = (720 * REPORT_EVERY_MS) / 3_600_000;
    expect(Math.abs((await machine.volume()) / (90 * hours) - 1)).toBeLessThan(0.01);
  });

  it("writes a machine's water once ten minutes of it have gathered, not at every run, and gives what is not written yet", async () => {
    // Watering up to a minute ago: the first run counts it all (the machine was never counted).
    const now = Date.now();
    const degrees = degreesInFiveSeconds(300, 0.05);
    const firstReports = turning(
      Array.from({ length: 24 }, () => degrees),
      { distance: 300, flow: 90 },
    ).map((report) => ({ ...report, ts: report.ts - START + now - 3 * 60_000 }));
    const machine = await machineWith(firstReports);
    const accounting = new WaterAccounting(
      {
        db: database.db,
        sprinklers: { machineIds: () => Promise.resolve([machine.machineId]) },
        reports: { between: reportsBetween, firstPages: reportsOfMachinesBetween },
        timeZone: 'Europe/Warsaw',
        logger: pino({ level: 'silent' }),
      },
      20,
    );
    const runs = async () => {
      accounting.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await accounting.stop();
    };
    await runs();
    const written = await machine.volume();
    expect(written).toBeGreaterThan(0);
    // Forty more seconds of water, settled: the runs leave it until ten minutes have gathered.
    const last = firstReports.at(-1)!;
    await machine.store(
      Array.from({ length: 8 }, (_, index) => ({
        ...last,
        ts: last.ts + (index + 1) * REPORT_EVERY_MS,
        angle: (last.angle + (index + 1) * degrees) % 360,
      })),
    );
    await runs();
    expect(await machine.volume()).toBe(written);
    const uncounted = await accounting.uncounted(machine.machineId);
    const uncountedMm = uncounted.flatMap((day) => day.cells).reduce((sum, cell) => sum + cell.mm, 0);
    const uncountedM3 = (uncountedMm / 1000) * WATER_GRID_STEP_M * WATER_GRID_STEP_M;
    expect(uncountedM3).toBeCloseTo((90 * 40) / 3600, 1);
    // Counted on demand, it is the water that was not written.
    await accounting.runOnce(new Date());
    expect((await machine.volume()) - written).toBeCloseTo(uncountedM3, 6);
    expect(await accounting.uncounted(machine.machineId)).toEqual([]);
  });

  it('gives the water of a machine never counted from its first report when that is recent, and leaves an old backlog to the runs', async () => {
    const degrees = degreesInFiveSeconds(300, 0.05);
    const twoMinutes = (startsAgoMs: number) =>
      turning(
        Array.from({ length: 24 }, () => degrees),
        { distance: 300, flow: 90 },
      ).map((report) => ({ ...report, ts: report.ts - START + Date.now() - startsAgoMs }));
    const accountingOf = (machineId: string) =>
      new WaterAccounting({
        db: database.db,
        sprinklers: { machineIds: () => Promise.resolve([machineId]) },
        reports: { between: reportsBetween, firstPages: reportsOfMachinesBetween },
        timeZone: 'Europe/Warsaw',
        logger: pino({ level: 'silent' }),
      });
    const uncountedM3 = async (machineId: string) => {
      const days = await accountingOf(machineId).uncounted(machineId);
      const mm = days.flatMap((day) => day.cells).reduce((sum, cell) => sum + cell.mm, 0);
      return (mm / 1000) * WATER_GRID_STEP_M * WATER_GRID_STEP_M;
    };

    // Added three minutes ago: no run has seen it, yet its two minutes at 90 m³/h show.
    const added = await machineWith(twoMinutes(3 * 60_000));
    expect(await uncountedM3(added.machineId)).toBeCloseTo((90 * 120) / 3600, 1);
    // A run that has made its progress row (at the start of time) changes nothing.
    await accountingOf(added.machineId).runOnce(new Date(Date.now() - 5 * 60_000));
    expect(await added.volume()).toBe(0);
    expect(await uncountedM3(added.machineId)).toBeCloseTo((90 * 120) / 3600, 1);

    // Reports from two hours ago, never counted: a backlog the runs count, not the watermap.
    const behind = await machineWith(twoMinutes(2 * 3600_000));
    expect(await uncountedM3(behind.machineId)).toBe(0);
    await behind.count();
    expect(await behind.volume()).toBeCloseTo((90 * 120) / 3600, 1);
  });

  it('counts a pair no arm could have swept as a gap in the data, and warns of them once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // 0° to 180° in 5 s at 2,000 m would water a half circle; the pairs around them are honest.
      const honest = degreesInFiveSeconds(LONGEST_ARM_M, 0.5 * MACHINE_LIMITS.tipSpeedMPerS);
      const reports = turning([honest, 180, honest, 180, honest], { distance: LONGEST_ARM_M, flow: 500 });
      const machine = await machineWith(reports);
      await machine.count();
      expect(await machine.volume()).toBeCloseTo(500 * ((3 * REPORT_EVERY_MS) / 3_600_000), 3);
      expect(machine.warn).toHaveBeenCalledOnce();
      expect(machine.warn.mock.lastCall![0]).toMatchObject({ pairs: 2 });

      const jumpAfter = async (report: Report) => {
        const jump = { ...report, ts: report.ts + REPORT_EVERY_MS, angle: (report.angle + 180) % 360 };
        await machine.store([jump]);
        await machine.count();
        return jump;
      };
      const jumped = await jumpAfter(reports.at(-1)!);
      expect(machine.warn).toHaveBeenCalledOnce();
      vi.setSystemTime(Date.now() + 60_000);
      await jumpAfter(jumped);
      expect(machine.warn).toHaveBeenCalledTimes(2);
      expect(machine.warn.mock.lastCall![0]).toMatchObject({ pairs: 2 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('never holds the event loop for long, even over a backlog of the widest pairs the bound allows', async () => {
    // At 2,000 m and the most water the schema takes: 1,000 pairs 5 s apart, each sweeping just
    // under the top tip speed (8.5°), back and forth over a sector of 17° (so that a round of
    // the accounting holds them all), then ten pairs 10 minutes apart across the same sector,
    // each just under the farthest an arm goes between two reports.
    const atTopSpeed = degreesInFiveSeconds(LONGEST_ARM_M, 0.99 * MACHINE_LIMITS.tipSpeedMPerS);
    const steps = Array.from({ length: 1000 }, (_, index) => (Math.floor(index / 2) % 2 === 0 ? 1 : -1) * atTopSpeed);
    const reports = turning(steps, { distance: LONGEST_ARM_M, flow: MACHINE_LIMITS.flowM3h });
    for (let index = 0; index < 10; index += 1) {
      const last = reports.at(-1)!;
      const angle = last.angle + (index % 2 === 0 ? 2 : -2) * atTopSpeed;
      reports.push({ ...last, ts: last.ts + 600_000, angle: (angle + 360) % 360 });
    }
    const machine = await machineWith(reports);

    const longest = await longestBlockMs(machine.count);

    expect(longest).toBeLessThan(50);
    const hours = (1000 * REPORT_EVERY_MS + 10 * 600_000) / 3_600_000;
    expect(Math.abs((await machine.volume()) / (MACHINE_LIMITS.flowM3h * hours) - 1)).toBeLessThan(0.01);
    expect(machine.warn).not.toHaveBeenCalled();
  }, 180_000);
});
