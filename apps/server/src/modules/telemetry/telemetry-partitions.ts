import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database, DatabaseHandle, Queryable } from '../../db/client';
import { oneProcessAtATime } from '../../db/one-process-at-a-time';
import { addDays, localDate, localMidnight } from '../../time/local-day';

/** Holds the reports no day partition takes: the rows from before partitioning, an odd timestamp. */
export const DEFAULT_PARTITION = 'telemetry_default';
/** A day partition: `telemetry_p` and its local calendar date (TIME_ZONE), YYYYMMDD. */
const DAY_PARTITION = /^telemetry_p(\d{4})(\d{2})(\d{2})$/;
/** Days after today whose partitions are made ahead: a day's reports never wait for theirs. */
export const DAYS_AHEAD = 3;
/**
 * The longest a drop waits for a lock: while it waits for the table's, new reports wait behind
 * it, so it gives up soon and tries again a moment later, else on the packing's next run.
 */
const LOCK_TIMEOUT = "'500ms'";
/** Any number unique to this application: the instances take turns dropping partitions. */
const DROPS_LOCK_KEY = 7_311_020_40;
/**
 * Looks at a partition whose drop did not get its locks this many times in one run, a pause
 * apart: another instance's packing or an hourly job holds them for moments, not an hour.
 */
const DROP_ATTEMPTS = 3;
const DROP_RETRY_PAUSE_MS = 1_000;

type DropOutcome = 'dropped' | 'kept' | 'not this time';

export function partitionName(date: string): string {
  return `telemetry_p${date.replaceAll('-', '')}`;
}

function partitionDate(name: string): string | undefined {
  const match = DAY_PARTITION.exec(name);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** A timestamp for DDL, which takes no parameters: from a Date, so nothing else can get in. */
function timestampLiteral(instant: Date): string {
  return `'${instant.toISOString()}'`;
}

export type EnsureOutcome = 'exists' | 'created' | 'moved' | 'failed';

/**
 * The `telemetry` row table's partitions (migration 0019): one per local calendar day in
 * TIME_ZONE, made ahead of the day, and a DEFAULT partition for whatever no day partition
 * takes. A day's partition goes as a whole once every machine-day in it is packed, in place of
 * deleting rows; rows in the DEFAULT partition are deleted as they are packed.
 */
export class TelemetryPartitions {
  constructor(
    private readonly deps: { db: Database; kind: DatabaseHandle['kind']; timeZone: string; logger: FastifyBaseLogger },
  ) {}

  /** Makes the partitions of today and the DAYS_AHEAD days after it (in TIME_ZONE) that are missing. */
  async ensureAhead(now: Date = new Date()): Promise<void> {
    const today = localDate(this.deps.timeZone, now);
    for (let ahead = 0; ahead <= DAYS_AHEAD; ahead += 1) await this.ensureDay(addDays(today, ahead));
  }

  /**
   * Makes the partition of a local calendar day unless it is there. Rows of that day in the
   * DEFAULT partition move to it, in the same transaction (reports bound for the DEFAULT
   * partition wait meanwhile; those of other days do not). Never throws: a day without its
   * partition still has its reports kept, in the DEFAULT partition.
   */
  async ensureDay(date: string): Promise<EnsureOutcome> {
    const { db, timeZone, logger } = this.deps;
    const name = partitionName(date);
    if (await this.exists(db, name)) return 'exists';
    const from = timestampLiteral(localMidnight(timeZone, date));
    const to = timestampLiteral(localMidnight(timeZone, addDays(date, 1)));
    const inDefault = sql.raw(`from ${DEFAULT_PARTITION} where ts >= ${from} and ts < ${to}`);
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT}`));
        const [held] = rowsOf(await tx.execute(sql`select 1 ${inDefault} limit 1`));
        if (!held) {
          await tx.execute(sql.raw(`create table ${name} partition of telemetry for values from (${from}) to (${to})`));
          return 'created';
        }
        // Exactly the rows deleted are the rows moved; none can arrive in the DEFAULT partition meanwhile.
        await tx.execute(sql.raw(`lock table ${DEFAULT_PARTITION} in share row exclusive mode`));
        await tx.execute(sql.raw(`create table ${name} (like telemetry including defaults including constraints)`));
        await tx.execute(
          sql`with moved as (delete ${inDefault} returning *) insert into ${sql.raw(name)} select * from moved`,
        );
        await tx.execute(
          sql.raw(`alter table telemetry attach partition ${name} for values from (${from}) to (${to})`),
        );
        return 'moved';
      });
    } catch (error) {
      // Another instance made it meanwhile, or it overlaps one made under another TIME_ZONE.
      if (await this.exists(db, name)) return 'exists';
      logger.warn({ err: error, partition: name }, 'telemetry partition not made: its reports go to the default one');
      return 'failed';
    }
  }

  /** The day partitions, by date, oldest first. */
  async days(): Promise<{ name: string; date: string }[]> {
    const rows = rowsOf(
      await this.deps.db.execute(sql`
        select child.relname as name from pg_inherits
        join pg_class child on child.oid = pg_inherits.inhrelid
        where pg_inherits.inhparent = 'telemetry'::regclass`),
    );
    return rows
      .flatMap((row) => {
        const name = String(row.name);
        const date = partitionDate(name);
        return date ? [{ name, date }] : [];
      })
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /**
   * Drops the day partitions before `beforeDate` whose every machine-day is packed with all its
   * reports: for each machine and local day with rows in it, a packed day holding as many
   * reports as the day has rows (rows of a day partition are never deleted, and a packed day
   * holds the rows it was packed from, so equal counts are the same reports). A day with a late
   * report stays until the packing packs that report in. Instances drop in turns: two at once
   * deadlocked, each holding one partition the other's look had read. The partitions dropped, by name.
   */
  async dropPacked(beforeDate: string): Promise<string[]> {
    const { timeZone } = this.deps;
    const zone = sql.param(timeZone);
    const blocker = (name: string) =>
      sql`select 1 from (
            select machine_id, (ts at time zone ${zone})::date as day from ${sql.raw(name)} group by 1, 2
          ) as machine_day
          left join telemetry_days packed
            on packed.machine_id = machine_day.machine_id and packed.day = machine_day.day
          where packed.machine_id is null or packed.report_count <> (
            select count(*) from telemetry
            where telemetry.machine_id = machine_day.machine_id
              and telemetry.ts >= (machine_day.day::timestamp at time zone ${zone})
              and telemetry.ts < ((machine_day.day + 1)::timestamp at time zone ${zone}))
          limit 1`;
    return this.inTurn(async () => {
      const dropped: string[] = [];
      let pending = (await this.days()).filter(({ date }) => date < beforeDate).map(({ name }) => name);
      for (let attempt = 1; pending.length > 0 && attempt <= DROP_ATTEMPTS; attempt += 1) {
        if (attempt > 1) await sleep(DROP_RETRY_PAUSE_MS);
        const failed: string[] = [];
        for (const name of pending) {
          const outcome = await this.dropIf(name, blocker(name));
          if (outcome === 'dropped') dropped.push(name);
          if (outcome === 'not this time') failed.push(name);
        }
        pending = failed;
      }
      return dropped;
    });
  }

  /**
   * Retention: every report before the local calendar day `beforeDate`, packed or not, goes:
   * day partitions dropped whole, rows of the DEFAULT partition and packed days deleted.
   */
  async dropBefore(beforeDate: string): Promise<{ partitions: number; packedDays: number; rows: number }> {
    const { db, timeZone } = this.deps;
    let partitions = 0;
    await this.inTurn(async () => {
      for (const { name, date } of await this.days()) {
        if (date >= beforeDate) break;
        if ((await this.dropIf(name)) === 'dropped') partitions += 1;
      }
    });
    const before = localMidnight(timeZone, beforeDate);
    return db.transaction(async (tx) => {
      const rows = rowsOf(
        await tx.execute(sql`delete from ${sql.raw(DEFAULT_PARTITION)} where ts < ${before.toISOString()} returning 1`),
      ).length;
      const packedDays = rowsOf(
        await tx.execute(sql`delete from telemetry_days where day < ${beforeDate} returning 1`),
      ).length;
      return { partitions, packedDays, rows };
    });
  }

  /**
   * Drops a day partition in one short transaction, unless `blocker` finds a row: no report
   * can enter it between the look and the drop (its lock), and a kill leaves it whole.
   */
  private async dropIf(name: string, blocker?: ReturnType<typeof sql>): Promise<DropOutcome> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT}`));
        if (!(await this.exists(tx, name))) return 'kept';
        // Share mode: reports of that day wait, reads go on; every other partition is untouched.
        await tx.execute(sql.raw(`lock table ${name} in share mode`));
        if (blocker && rowsOf(await tx.execute(blocker)).length > 0) return 'kept';
        await tx.execute(sql.raw(`drop table ${name}`));
        return 'dropped';
      });
    } catch (error) {
      // A lock not had in time: looked at again.
      this.deps.logger.info({ err: error, partition: name }, 'telemetry partition not dropped this time');
      return 'not this time';
    }
  }

  /** Runs drops while no other instance drops partitions, after the one that does. */
  private inTurn<T>(drops: () => Promise<T>): Promise<T> {
    return oneProcessAtATime(this.deps, DROPS_LOCK_KEY, drops, { wait: true });
  }

  private async exists(db: Queryable, name: string): Promise<boolean> {
    const [row] = rowsOf(await db.execute(sql`select to_regclass(${name}) is not null as found`));
    return row?.found === true;
  }
}
