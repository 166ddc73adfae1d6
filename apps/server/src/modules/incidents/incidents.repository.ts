import type { IncidentKind } from '@pivot/contracts';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import type { OpenIncident, Watch } from './incident-rules';
import { incidents, jobRuns, machineWatch } from './incidents.table';

/** The incident watch's lock: one instance looks at a time (any number may try). */
const WATCH_LOCK_KEY = 7_301_845;

/**
 * Waits for the incident watch's lock, for a look that no other takes the place of: the water
 * stress look, which an incident watch's minute would otherwise put off by an hour.
 */
export async function lockWatch(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${WATCH_LOCK_KEY})`);
}

/** Whether this transaction holds the watch's lock until it ends; false when another instance looks now. */
export async function tryLockWatch(tx: Queryable): Promise<boolean> {
  const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${WATCH_LOCK_KEY}) as locked`);
  // node-postgres and PGlite both answer with the rows under `rows`.
  const [row] = (result as { rows: { locked: boolean }[] }).rows;
  return row?.locked === true;
}

/**
 * The database's clock as this statement runs, and the moment from which a write may be unseen
 * by a statement after this one, ms since the epoch (the same clocks on every instance): the
 * start of the oldest transaction of this database that has written and not ended, if any began
 * before now. Its writes are dated no earlier than its start (`clock_timestamp()` as they run),
 * and a statement sees them only once it commits. Sessions of another role are hidden from
 * pg_stat_activity without pg_read_all_stats: the server's instances share one role.
 */
export async function writesUnseenFrom(tx: Queryable): Promise<{ now: number; unseenFrom: number }> {
  const result = await tx.execute(sql`
    select (extract(epoch from now) * 1000)::float8 as now,
           (extract(epoch from least(now, oldest)) * 1000)::float8 as "unseenFrom"
    from (
      select clock_timestamp() as now,
             (select min(xact_start) from pg_stat_activity
              where backend_xid is not null and pid <> pg_backend_pid() and datname = current_database()) as oldest
    ) as clocks`);
  const [row] = (result as { rows: { now: number; unseenFrom: number }[] }).rows;
  return row!;
}

/**
 * Claims the job's run at `now` unless any instance ran it less than `periodMs` ago: whether this
 * one runs it. The row's lock makes two instances claiming at once take turns; the second sees
 * the first's time.
 */
export async function claimJobRun(db: Queryable, job: string, now: Date, periodMs: number): Promise<boolean> {
  const claimed = await db
    .insert(jobRuns)
    .values({ job, ranAt: now })
    .onConflictDoUpdate({
      target: jobRuns.job,
      set: { ranAt: now },
      setWhere: sql`${jobRuns.ranAt} <= ${new Date(now.getTime() - periodMs).toISOString()}::timestamptz`,
    })
    .returning({ job: jobRuns.job });
  return claimed.length > 0;
}

/** What the previous look saw of the given machines. */
export async function findWatches(db: Queryable, machineIds: string[]): Promise<Map<string, Watch>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(machineWatch)
    .where(sql`${machineWatch.machineId} = any(${sql.param(machineIds)}::text[])`);
  return new Map(
    rows.map((row) => [
      row.machineId,
      { status: row.status, lowPressureSince: row.lowPressureSince?.getTime() ?? null },
    ]),
  );
}

/** The machines whose pressure is low and not for long enough yet: time alone may raise their incident. */
export async function findLowPressurePending(db: Queryable): Promise<string[]> {
  const rows = await db
    .select({ machineId: machineWatch.machineId })
    .from(machineWatch)
    .where(isNotNull(machineWatch.lowPressureSince));
  return rows.map((row) => row.machineId);
}

export async function saveWatch(db: Queryable, machineId: string, watch: Watch): Promise<void> {
  const values = {
    status: watch.status,
    lowPressureSince: watch.lowPressureSince === null ? null : new Date(watch.lowPressureSince),
  };
  await db
    .insert(machineWatch)
    .values({ machineId, ...values })
    .onConflictDoUpdate({ target: machineWatch.machineId, set: values });
}

/** The open incidents, by machine and kind. */
export async function findOpenIncidents(db: Queryable): Promise<Map<string, Map<IncidentKind, OpenIncident>>> {
  const rows = await db.select().from(incidents).where(isNull(incidents.endedAt));
  const byMachine = new Map<string, Map<IncidentKind, OpenIncident>>();
  for (const row of rows) {
    const open = byMachine.get(row.machineId) ?? new Map<IncidentKind, OpenIncident>();
    open.set(row.kind, {
      id: row.id,
      kind: row.kind,
      beganAt: row.beganAt.getTime(),
      recoveringSince: row.recoveringSince?.getTime() ?? null,
      relapses: row.relapses,
    });
    byMachine.set(row.machineId, open);
  }
  return byMachine;
}

/** Opens an incident; false when one of its kind is open for the machine already. */
export async function openIncident(
  db: Queryable,
  values: { machineId: string; kind: IncidentKind; beganAt: Date; detail: string },
): Promise<boolean> {
  const inserted = await db.insert(incidents).values(values).onConflictDoNothing().returning({ id: incidents.id });
  return inserted.length > 0;
}

/** Ends an open incident; false when it had ended already. */
export async function endIncident(db: Queryable, id: number, endedAt: Date): Promise<boolean> {
  const ended = await db
    .update(incidents)
    .set({ endedAt })
    .where(and(eq(incidents.id, id), isNull(incidents.endedAt)))
    .returning({ id: incidents.id });
  return ended.length > 0;
}

export async function setRecovering(db: Queryable, id: number, since: number | null, relapses: number): Promise<void> {
  await db
    .update(incidents)
    .set({ recoveringSince: since === null ? null : new Date(since), relapses })
    .where(eq(incidents.id, id));
}
