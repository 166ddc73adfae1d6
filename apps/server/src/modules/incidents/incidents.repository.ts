import type { IncidentKind } from '@pivot/contracts';
import { and, isNotNull, isNull, sql } from 'drizzle-orm';
import { chunked } from '../../db/chunked';
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

/** Rows a statement writes: a few parameters a row, far below the statement's limit. */
const ROWS_PER_STATEMENT = 5_000;

/** What the look saw of each of the machines, in a statement per few thousand. */
export async function saveWatches(db: Queryable, watches: { machineId: string; watch: Watch }[]): Promise<void> {
  for (const chunk of chunked(watches, ROWS_PER_STATEMENT)) {
    await db
      .insert(machineWatch)
      .values(
        chunk.map(({ machineId, watch }) => ({
          machineId,
          status: watch.status,
          lowPressureSince: watch.lowPressureSince === null ? null : new Date(watch.lowPressureSince),
        })),
      )
      .onConflictDoUpdate({
        target: machineWatch.machineId,
        set: { status: sql`excluded.status`, lowPressureSince: sql`excluded.low_pressure_since` },
      });
  }
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

/** How many incidents are open on each of the machines (by broker ID), in one statement; a machine with none is left out. */
export async function countOpenIncidents(db: Queryable, machineIds: string[]): Promise<Map<string, number>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select({ machineId: incidents.machineId, open: sql<number>`count(*)::int` })
    .from(incidents)
    .where(and(isNull(incidents.endedAt), sql`${incidents.machineId} = any(${sql.param(machineIds)}::text[])`))
    .groupBy(incidents.machineId);
  return new Map(rows.map((row) => [row.machineId, row.open]));
}

/** An incident to open: its machine, kind, start and detail. */
export type NewIncident = { machineId: string; kind: IncidentKind; beganAt: Date; detail: string };

/**
 * Opens the incidents, a statement per few thousand; those opened, as `machine kind` keys: not
 * one whose kind is open for its machine already (another instance opened it).
 */
export async function openIncidents(db: Queryable, opening: NewIncident[]): Promise<Set<string>> {
  const opened = new Set<string>();
  for (const chunk of chunked(opening, ROWS_PER_STATEMENT)) {
    const rows = await db
      .insert(incidents)
      .values(chunk)
      .onConflictDoNothing()
      .returning({ machineId: incidents.machineId, kind: incidents.kind });
    for (const row of rows) opened.add(incidentKey(row.machineId, row.kind));
  }
  return opened;
}

export function incidentKey(machineId: string, kind: IncidentKind): string {
  return `${machineId} ${kind}`;
}

/** Ends the open incidents, in one statement; the ids of those ended, not those that had ended already. */
export async function endIncidents(db: Queryable, ids: number[], endedAt: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const ended = await db
    .update(incidents)
    .set({ endedAt })
    .where(and(sql`${incidents.id} = any(${sql.param(ids)}::bigint[])`, isNull(incidents.endedAt)))
    .returning({ id: incidents.id });
  return new Set(ended.map((row) => row.id));
}

/** Sets each incident's recovery (since when it holds, null for none) and its relapses, in one statement. */
export async function setRecoverings(
  db: Queryable,
  changes: { id: number; since: number | null; relapses: number }[],
): Promise<void> {
  if (changes.length === 0) return;
  await db.execute(sql`
    update ${incidents} as incident
    set recovering_since = change.since, relapses = change.relapses
    from unnest(
      ${sql.param(changes.map((change) => change.id))}::bigint[],
      ${sql.param(changes.map((change) => (change.since === null ? null : new Date(change.since).toISOString())))}::timestamptz[],
      ${sql.param(changes.map((change) => change.relapses))}::int[]
    ) as change(id, since, relapses)
    where incident.id = change.id`);
}
