import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelemetryPacker } from '../../src/modules/telemetry/telemetry-packer';
import { telemetryDays } from '../../src/modules/telemetry/telemetry-packing.table';
import { machineState, telemetry } from '../../src/modules/telemetry/telemetry.table';
import { MIGRATIONS_FOLDER } from '../../src/paths';
import { localDate } from '../../src/time/local-day';
import { buildSprinkler } from '../support/fixtures';
import { withDatabaseName } from '../support/database';
import { type TestApp, createTestApp } from '../support/test-app';
import { unmigratedPglite } from '../support/embedded-databases';

type Row = typeof telemetry.$inferSelect;
type AnyDatabase = PgDatabase<PgQueryResultHKT>;

/** A machine turning at 0.01° a second from `from`, reporting every 5 s, for `minutes`. */
function turning(machineId: string, from: string, minutes: number): Row[] {
  const start = Date.parse(from);
  return Array.from({ length: minutes * 12 + 1 }, (_, index) => ({
    machineId,
    ts: new Date(start + index * 5_000),
    status: 'front' as const,
    angle: Math.round(((45 + index * 0.05) % 360) * 100) / 100,
    distance: 300,
    speed: 50,
    pressure: 2.5,
    flow: 72,
  }));
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** Which partitions hold the machine's rows, by name, oldest rows first (a run of rows named once). */
async function partitionsHolding(db: AnyDatabase, machineId: string): Promise<string[]> {
  const result = await db.execute(
    sql`select tableoid::regclass::text as name from telemetry where machine_id = ${machineId} order by ts`,
  );
  const names = rowsOf(result).map((row) => String(row.name));
  return names.filter((name, index) => name !== names[index - 1]);
}

/** The migrations up to (not including) 0019 in a folder of their own, as a database of before had them. */
async function migrationsBeforePartitions(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0019');
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

describe('the migration to a partitioned report table', () => {
  async function convertsKeepingEveryRow(db: AnyDatabase, migrate: (folder: string) => Promise<void>) {
    const before = await migrationsBeforePartitions();
    try {
      await migrate(before);
      const rows = [
        ...turning('m-1', '2026-05-01T08:00:00Z', 60),
        ...turning('m-2', '2026-05-01T08:00:00Z', 60),
        ...turning('m-1', '1999-12-31T23:00:00Z', 5),
      ];
      await db.insert(telemetry).values(rows);
      await migrate(MIGRATIONS_FOLDER);
      const [kind] = rowsOf(
        await db.execute(sql`select relkind::text as kind from pg_class where oid = 'telemetry'::regclass`),
      );
      expect(kind?.kind).toBe('p');
      const after = await db.select().from(telemetry).orderBy(asc(telemetry.machineId), asc(telemetry.ts));
      const sorted = [...rows].sort(
        (a, b) => a.machineId.localeCompare(b.machineId) || a.ts.getTime() - b.ts.getTime(),
      );
      expect(after).toEqual(sorted);
      expect(await partitionsHolding(db, 'm-1')).toEqual(['telemetry_default']);
      // The primary key holds on the partitioned table: a repeat is still skipped.
      await db.insert(telemetry).values(rows[0]!).onConflictDoNothing();
      const [count] = rowsOf(await db.execute(sql`select count(*)::int as n from telemetry`));
      expect(count?.n).toBe(rows.length);
    } finally {
      await rm(before, { recursive: true, force: true });
    }
  }

  // On the database the tests run on: PostgreSQL at DATABASE_URL, the embedded PGlite otherwise.
  it('keeps every row and the primary key', async () => {
    const url = process.env.DATABASE_URL;
    if (!url) {
      const client = unmigratedPglite();
      const db = drizzlePglite(client, { casing: 'snake_case' });
      try {
        await convertsKeepingEveryRow(db as unknown as AnyDatabase, (folder) =>
          migratePglite(db, { migrationsFolder: folder }),
        );
      } finally {
        await client.close();
      }
      return;
    }
    const name = `pivot_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const pool = new pg.Pool({ connectionString: withDatabaseName(url, name) });
    // The drop below ends a connection pool.end() has not closed yet: not an error of the test.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { casing: 'snake_case' });
    try {
      await convertsKeepingEveryRow(db as unknown as AnyDatabase, (folder) =>
        migratePg(db, { migrationsFolder: folder }),
      );
    } finally {
      await pool.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    // A fresh database runs every migration: slow on two busy cores.
  }, 120_000);
});

describe('day partitions of the report table', () => {
  let t: TestApp;
  let db: AnyDatabase;

  beforeAll(async () => {
    // Days are packed when a test says so: the app's own packing waits 100 years.
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    db = t.database.db as unknown as AnyDatabase;
  });
  afterAll(() => t.close());

  async function machine() {
    const pivot = await buildSprinkler(t);
    await t.database.db.insert(machineState).values({ machineId: pivot.internalId }).onConflictDoNothing();
    return pivot.internalId;
  }

  async function rowsOfMachine(machineId: string) {
    return t.database.db.select().from(telemetry).where(eq(telemetry.machineId, machineId)).orderBy(asc(telemetry.ts));
  }

  async function packedDaysOf(machineId: string) {
    const days = await t.database.db
      .select({ day: telemetryDays.day, reportCount: telemetryDays.reportCount })
      .from(telemetryDays)
      .where(eq(telemetryDays.machineId, machineId))
      .orderBy(asc(telemetryDays.day));
    return days;
  }

  async function readBack(machineId: string, from: string, to: string): Promise<Row[]> {
    const rows: Row[] = [];
    for await (const { reports } of t.app.storedReports.ofDays(machineId, from, to)) {
      for (const report of reports) rows.push({ machineId, ...report, ts: new Date(report.ts) });
    }
    return rows;
  }

  function packer(options: { retentionDays?: number } = {}) {
    return new TelemetryPacker({
      db: t.database.db,
      partitions: t.app.telemetryPartitions,
      timeZone: 'Europe/Warsaw',
      packAfterDays: 2,
      retentionDays: options.retentionDays ?? null,
      logger: t.app.log,
    });
  }

  it('has today and the days ahead made at start, and a report of an odd time kept in the default one', async () => {
    const dates = (await t.app.telemetryPartitions.days()).map((day) => day.date);
    expect(dates).toContain(localDate('Europe/Warsaw', new Date()));
    expect(dates).toContain(localDate('Europe/Warsaw', Date.now() + 3 * 86_400_000));
    const id = await machine();
    const odd = turning(id, '1970-01-02T00:00:00Z', 1);
    const now = turning(id, new Date().toISOString(), 1);
    await t.database.db.insert(telemetry).values([...odd, ...now]);
    expect(await partitionsHolding(db, id)).toEqual([
      'telemetry_default',
      `telemetry_p${localDate('Europe/Warsaw', now[0]!.ts).replaceAll('-', '')}`,
    ]);
    expect(await rowsOfMachine(id)).toEqual([...odd, ...now]);
  });

  it('moves the rows of a day out of the default partition when it makes the day partition', async () => {
    const id = await machine();
    // 10 January 2031 in Warsaw is 9 January 23:00 UTC to 10 January 23:00 UTC.
    const rows = [...turning(id, '2031-01-09T22:30:00Z', 60), ...turning(id, '2031-01-10T22:30:00Z', 60)];
    await t.database.db.insert(telemetry).values(rows);
    expect(await partitionsHolding(db, id)).toEqual(['telemetry_default']);
    expect(await t.app.telemetryPartitions.ensureDay('2031-01-10')).toBe('moved');
    expect(await t.app.telemetryPartitions.ensureDay('2031-01-10')).toBe('exists');
    expect(await partitionsHolding(db, id)).toEqual(['telemetry_default', 'telemetry_p20310110', 'telemetry_default']);
    expect(await rowsOfMachine(id)).toEqual(rows);
  });

  it('drops a day partition once every machine-day in it is packed, and not before, losing nothing', async () => {
    expect(await t.app.telemetryPartitions.ensureDay('2026-07-01')).toBe('created');
    const a = await machine();
    const b = await machine();
    const dayA = turning(a, '2026-07-01T08:00:00Z', 120);
    const dayB = turning(b, '2026-07-01T12:00:00Z', 120);
    const nextDay = turning(a, '2026-07-02T08:00:00Z', 10);
    await t.database.db.insert(telemetry).values([...dayA, ...dayB, ...nextDay]);

    expect(await t.app.telemetryPacker.packDay(a, '2026-07-01')).toBe('packed');
    // A day partition's rows stay until the partition goes; the reader gives each report once.
    expect(await rowsOfMachine(a)).toEqual([...dayA, ...nextDay]);
    expect(await readBack(a, '2026-07-01', '2026-07-02')).toEqual([...dayA, ...nextDay]);
    expect(await t.app.telemetryPacker.packDay(a, '2026-07-01')).toBe('already packed');
    expect(await t.app.telemetryPartitions.dropPacked('2026-07-03')).toEqual([]);

    expect(await t.app.telemetryPacker.packDay(b, '2026-07-01')).toBe('packed');
    expect(await t.app.telemetryPartitions.dropPacked('2026-07-01')).toEqual([]);
    expect(await t.app.telemetryPartitions.dropPacked('2026-07-03')).toEqual(['telemetry_p20260701']);
    expect(await rowsOfMachine(a)).toEqual(nextDay);
    expect(await rowsOfMachine(b)).toEqual([]);
    expect(await readBack(a, '2026-07-01', '2026-07-02')).toEqual([...dayA, ...nextDay]);
    expect(await readBack(b, '2026-07-01', '2026-07-02')).toEqual(dayB);
  });

  it('keeps a day partition with a late report until the packing packs the report in', async () => {
    await t.app.telemetryPartitions.ensureDay('2026-07-06');
    const id = await machine();
    const day = turning(id, '2026-07-06T08:00:00Z', 60);
    await t.database.db.insert(telemetry).values(day);
    expect(await t.app.telemetryPacker.packDay(id, '2026-07-06')).toBe('packed');
    const late = { ...day[7]!, ts: new Date(day[7]!.ts.getTime() + 2_000), angle: 3.25 };
    await t.database.db.insert(telemetry).values(late);
    expect(await t.app.telemetryPartitions.dropPacked('2026-07-08')).not.toContain('telemetry_p20260706');

    // 10 July, 12:00 in Warsaw: 6 July is due.
    await packer().packDue(new Date('2026-07-10T10:00:00Z'));
    expect((await t.app.telemetryPartitions.days()).map((partition) => partition.date)).not.toContain('2026-07-06');
    expect(await packedDaysOf(id)).toEqual([{ day: '2026-07-06', reportCount: day.length + 1 }]);
    expect(await readBack(id, '2026-07-06', '2026-07-06')).toEqual(
      [...day, late].sort((x, y) => x.ts.getTime() - y.ts.getTime()),
    );
  });

  it('packs each machine-day once and drops each partition once when two pack at once', async () => {
    const ids = [await machine(), await machine(), await machine()];
    const dates = ['2026-07-20', '2026-07-21', '2026-07-22'];
    const stored: Row[] = [];
    for (const date of dates) {
      await t.app.telemetryPartitions.ensureDay(date);
      for (const id of ids) stored.push(...turning(id, `${date}T09:00:00Z`, 30));
    }
    await t.database.db.insert(telemetry).values(stored);
    const now = new Date('2026-07-26T10:00:00Z');
    const [one, two] = await Promise.all([packer().packDue(now), packer().packDue(now)]);
    expect(one + two).toBe(ids.length * dates.length);
    // The two drop in turns, and the second finds what the first had to leave: no third run is needed.
    const left = (await t.app.telemetryPartitions.days()).map((partition) => partition.date);
    for (const date of dates) expect(left).not.toContain(date);
    for (const id of ids) {
      expect(await packedDaysOf(id)).toEqual(dates.map((day) => ({ day, reportCount: 361 })));
      expect(await rowsOfMachine(id)).toEqual([]);
      expect(await readBack(id, '2026-07-01', '2026-07-31')).toEqual(stored.filter((row) => row.machineId === id));
    }
  });

  /** Machines' packed days in day partitions of their own, ready to be dropped. */
  async function packedPartitions(dates: string[], machines: number): Promise<void> {
    const ids = await Promise.all(Array.from({ length: machines }, () => machine()));
    for (const date of dates) {
      await t.app.telemetryPartitions.ensureDay(date);
      for (const id of ids) {
        await t.database.db.insert(telemetry).values(turning(id, `${date}T09:00:00Z`, 30));
        expect(await t.app.telemetryPacker.packDay(id, date)).toBe('packed');
      }
    }
  }

  it('drops, in the same run, a partition a reader held for a moment', async () => {
    await packedPartitions(['2026-08-03'], 1);
    const reading = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from telemetry_p20260803 limit 1`);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
    });
    // Empty partitions made ahead by the tests above go too.
    expect(await t.app.telemetryPartitions.dropPacked('2026-08-04')).toContain('telemetry_p20260803');
    await reading;
  });

  it('drops every packed partition when three instances drop at once', async () => {
    const dates = ['2026-08-10', '2026-08-11', '2026-08-12', '2026-08-13', '2026-08-14', '2026-08-15'];
    await packedPartitions(dates, 4);
    const runs = await Promise.all([1, 2, 3].map(() => t.app.telemetryPartitions.dropPacked('2026-08-16')));
    expect(runs.flat().sort()).toEqual(dates.map((date) => `telemetry_p${date.replaceAll('-', '')}`));
    expect((await t.app.telemetryPartitions.days()).filter(({ date }) => date < '2026-08-16')).toEqual([]);
  });

  // Last: the retention deletes every machine's reports before its cutoff, those of the tests above too.
  it('deletes the days past TELEMETRY_RETENTION_DAYS, packed or in the default partition, and keeps the rest', async () => {
    const id = await machine();
    await t.app.telemetryPartitions.ensureDay('2026-09-10');
    const old = turning(id, '2026-09-01T08:00:00Z', 10);
    const partitioned = turning(id, '2026-09-10T08:00:00Z', 10);
    const kept = turning(id, '2026-09-16T08:00:00Z', 10);
    const recent = turning(id, '2026-09-19T08:00:00Z', 10);
    await t.database.db.insert(telemetry).values([...old, ...partitioned, ...kept, ...recent]);
    // 20 September in Warsaw; 5 days kept: 15 September on.
    await packer({ retentionDays: 5 }).packDue(new Date('2026-09-20T10:00:00Z'));
    expect(await packedDaysOf(id)).toEqual([{ day: '2026-09-16', reportCount: kept.length }]);
    expect(await rowsOfMachine(id)).toEqual(recent);
    expect((await t.app.telemetryPartitions.days()).map((partition) => partition.date)).not.toContain('2026-09-10');
    expect(await readBack(id, '2026-08-01', '2026-09-30')).toEqual([...kept, ...recent]);
  });
});
