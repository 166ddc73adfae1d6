import {
  type MachineProgramMessage,
  type ProgramData,
  type SprinklerStatus,
  type TelemetryMessage,
  silenceBeforeOfflineMs,
} from '@pivot/contracts';
import { type SQL, type SQLWrapper, and, asc, eq, getTableColumns, gte, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import { type MachineStateRow, machineState, telemetry } from './telemetry.table';

/**
 * What every update of a machine's state sets `changed_at` to (an insert takes it as the column's
 * default): the time the statement runs, not the transaction's start (`now()`), so a row is
 * dated as close as can be to its commit. The incident watch reads the rows changed from the
 * start of the oldest transaction still writing at its previous look (`writesUnseenFrom`).
 */
const CHANGED_NOW = sql`clock_timestamp()`;

export type TelemetryReport = { machineId: string; message: TelemetryMessage };

/** The measured values of a report, as stored, shown and streamed. */
export function measuredValues(message: TelemetryMessage) {
  const { status, angle, distance, speed, pressure, flow } = message;
  return { status, angle, distance, speed, pressure, flow };
}

/**
 * Stores reports; a report already stored (same machine and timestamp) is skipped. Each column
 * travels as one array parameter that unnest turns back into rows: a batch of thousands of
 * reports is one statement with eight parameters, where a multi-row VALUES list would have tens
 * of thousands for the query builder, the driver and the database to handle one by one.
 */
export async function insertTelemetry(db: Queryable, reports: TelemetryReport[]): Promise<void> {
  if (reports.length === 0) return;
  await db.execute(sql`
    insert into ${telemetry} (machine_id, ts, status, angle, distance, speed, pressure, flow)
    select * from unnest(${measuredArrays(reports)})
    on conflict do nothing`);
}

/**
 * Keeps each machine's newest report as its state; an older report arriving late changes nothing.
 * Like the insert, one statement of array parameters, one row per machine in the batch, in the
 * order of their IDs: two batches upserting the same machines (two server instances, or two
 * batches at once) lock their rows in the same order and cannot deadlock.
 */
export async function updateLatestState(db: Queryable, reports: TelemetryReport[]): Promise<void> {
  const newest = new Map<string, TelemetryReport>();
  for (const report of reports) {
    const known = newest.get(report.machineId);
    if (!known || known.message.ts < report.message.ts) newest.set(report.machineId, report);
  }
  if (newest.size === 0) return;
  const latest = [...newest.values()].sort((a, b) => (a.machineId < b.machineId ? -1 : 1));
  const alarms = latest.map(({ message }) => message.alarm ?? null);
  const positions = latest.map(({ message }) => (message.position ? JSON.stringify(message.position) : null));
  await db.execute(sql`
    insert into ${machineState} as state
      (machine_id, online, reported_at, status, angle, distance, speed, pressure, flow, alarm, position)
    select machine_id, true, reported_at, status, angle, distance, speed, pressure, flow, alarm, position
    from unnest(
      ${measuredArrays(latest)},
      ${sql.param(alarms)}::text[],
      ${sql.param(positions)}::jsonb[]
    ) as report (machine_id, reported_at, status, angle, distance, speed, pressure, flow, alarm, position)
    on conflict (machine_id) do update set
      -- A controller publishes its presence once, as it connects, and a broker may drop it on the
      -- way (Mosquitto does to a subscriber that falls behind): a machine that reports though its
      -- presence never arrived is connected, and its silence tells when it is not.
      online = case when state.presence_at is null then true else state.online end,
      reported_at = excluded.reported_at,
      status = excluded.status,
      angle = excluded.angle,
      distance = excluded.distance,
      speed = excluded.speed,
      pressure = excluded.pressure,
      flow = excluded.flow,
      alarm = excluded.alarm,
      position = excluded.position,
      changed_at = ${CHANGED_NOW}
    where state.reported_at is null or state.reported_at < excluded.reported_at`);
}

/**
 * The machine, time and measured values of reports, a column each, as the array parameters of
 * unnest, in the order of the telemetry table's columns.
 */
function measuredArrays(reports: TelemetryReport[]): SQL {
  const columns = {
    machineId: new Array<string>(reports.length),
    ts: new Array<Date>(reports.length),
    status: new Array<SprinklerStatus>(reports.length),
    angle: new Array<number>(reports.length),
    distance: new Array<number>(reports.length),
    speed: new Array<number>(reports.length),
    pressure: new Array<number>(reports.length),
    flow: new Array<number>(reports.length),
  };
  reports.forEach(({ machineId, message }, index) => {
    columns.machineId[index] = machineId;
    columns.ts[index] = new Date(message.ts);
    columns.status[index] = message.status;
    columns.angle[index] = message.angle;
    columns.distance[index] = message.distance;
    columns.speed[index] = message.speed;
    columns.pressure[index] = message.pressure;
    columns.flow[index] = message.flow;
  });
  return sql`
    ${sql.param(columns.machineId)}::text[],
    ${sql.param(columns.ts)}::timestamptz[],
    ${sql.param(columns.status)}::text[],
    ${sql.param(columns.angle)}::float8[],
    ${sql.param(columns.distance)}::float8[],
    ${sql.param(columns.speed)}::float8[],
    ${sql.param(columns.pressure)}::float8[],
    ${sql.param(columns.flow)}::float8[]`;
}

export async function updatePresence(db: Queryable, machineId: string, online: boolean, at: Date): Promise<void> {
  await db
    .insert(machineState)
    .values({ machineId, online, presenceAt: at })
    .onConflictDoUpdate({ target: machineState.machineId, set: { online, presenceAt: at, changedAt: CHANGED_NOW } });
}

/** Every machine offline from `at` on (no controller is connected: the embedded broker has just started). */
export async function markAllOffline(db: Queryable, at: Date): Promise<void> {
  await db
    .update(machineState)
    .set({ online: false, presenceAt: at, changedAt: CHANGED_NOW })
    .where(eq(machineState.online, true));
}

export async function updateMachineProgram(
  db: Queryable,
  machineId: string,
  program: MachineProgramMessage['program'],
): Promise<void> {
  const values = {
    programName: program?.name ?? null,
    programData: program?.programData ?? null,
    programUploadedAt: program ? new Date(program.uploadedAt) : null,
  };
  await db
    .insert(machineState)
    .values({ machineId, ...values })
    .onConflictDoUpdate({ target: machineState.machineId, set: { ...values, changedAt: CHANGED_NOW } });
}

/**
 * Rows of the given machines. The IDs travel as one array parameter: the incident watch asks for
 * every added machine each second, and an `in (…)` list would be a parameter per machine for the
 * query builder, the driver and the database to handle one by one.
 */
function ofMachines(machineIds: string[]): SQL {
  return sql`${machineState.machineId} = any(${sql.param(machineIds)}::text[])`;
}

/**
 * Each machine's latest state as a subquery to join, for the queries that show machines with
 * their states in one statement (the machines list, the machine detail): the planner flattens it
 * into a plain join, and the table stays this module's.
 */
export const latestStates = new QueryBuilder().select().from(machineState).as('latest_state');

/** A timestamp column as ms since the epoch, as `Date.getTime()` gives it: for JSON the database writes. */
export function epochMs(column: SQLWrapper): SQL<number | null> {
  return sql<number | null>`floor(extract(epoch from ${column}) * 1000)::bigint`;
}

/**
 * Whether the machine of a `latestStates` row is online at `nowMs` (ms since the epoch), as
 * `isOnline` judges it (contracts' `machineIsOnline`), for a query that writes machines' states
 * itself; false without a row. Tested against `isOnline` on every kind of state.
 */
export function onlineAt(nowMs: SQLWrapper): SQL<boolean> {
  const { online, reportedAt, status, flow } = latestStates;
  const moving = sql`(${status} in ('front', 'back') or coalesce(${flow}, 0) > 0)`;
  const silenceMs = sql`case when ${moving}
    then ${silenceBeforeOfflineMs({ status: 'front', flow: null })}::bigint
    else ${silenceBeforeOfflineMs({ status: 'stop', flow: null })}::bigint end`;
  return sql<boolean>`(coalesce(${online}, false)
    and (${reportedAt} is null or ${nowMs}::bigint - ${epochMs(reportedAt)} <= ${silenceMs}))`;
}

export async function findMachineStates(db: Queryable, machineIds: string[]): Promise<Map<string, MachineStateRow>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db.select().from(machineState).where(ofMachines(machineIds));
  return new Map(rows.map((row) => [row.machineId, row]));
}

/**
 * What watching a machine reads of its latest state: the incident watch reads it for every added
 * machine each second, so neither its program's sectors nor its GPS line nor anything else it
 * does not judge by.
 */
export type MachineLiveState = Pick<
  MachineStateRow,
  'machineId' | 'online' | 'reportedAt' | 'presenceAt' | 'status' | 'pressure' | 'flow' | 'angle' | 'alarm'
>;

/**
 * Which of the machines' states a look needs when it need not read them all: those written from
 * a moment on, those named, and those whose silence has lasted long enough to make them offline
 * (last heard, by the machine's clock like the rules, at or before the time given for a machine
 * disconnected, moving or resting: the threshold differs, see `silenceBeforeOfflineMs`).
 */
export type LiveStateFilter = {
  changedFrom: Date;
  alsoOf: string[];
  heardBefore: { disconnected: Date; moving: Date; resting: Date };
};

/** The latest state of the given machines that watching them needs (those of `only`, if given), by machine ID. */
export async function findLiveStates(
  db: Queryable,
  machineIds: string[],
  only?: LiveStateFilter,
): Promise<Map<string, MachineLiveState>> {
  if (machineIds.length === 0) return new Map();
  const { machineId, online, reportedAt, presenceAt, status, pressure, flow, angle, alarm } = machineState;
  const lastHeard = sql`coalesce(${reportedAt}, ${presenceAt})`;
  const wanted =
    only &&
    sql`(
      ${machineState.changedAt} >= ${only.changedFrom.toISOString()}::timestamptz
      or ${machineId} = any(${sql.param(only.alsoOf)}::text[])
      or ${lastHeard} is null
      or ${lastHeard} <= case
        when not ${online} then ${only.heardBefore.disconnected.toISOString()}::timestamptz
        when ${status} in ('front', 'back') or coalesce(${flow}, 0) > 0
          then ${only.heardBefore.moving.toISOString()}::timestamptz
        else ${only.heardBefore.resting.toISOString()}::timestamptz
      end
    )`;
  const rows = await db
    .select({ machineId, online, reportedAt, presenceAt, status, pressure, flow, angle, alarm })
    .from(machineState)
    .where(and(ofMachines(machineIds), wanted));
  return new Map(rows.map((row) => [row.machineId, row]));
}

/** The sectors of the program each of the given machines runs, by machine ID; none for a machine without one. */
export async function findRunningPrograms(
  db: Queryable,
  machineIds: string[],
): Promise<Map<string, NonNullable<MachineStateRow['programData']>>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select({ machineId: machineState.machineId, programData: machineState.programData })
    .from(machineState)
    .where(and(ofMachines(machineIds), isNotNull(machineState.programData)));
  return new Map(rows.map((row) => [row.machineId, row.programData!]));
}

/**
 * The program the machine reports as loaded (its active program's sectors), with what tells one
 * upload from another (its name and when the machine finished taking it); null when none.
 */
export async function activeProgramOf(
  db: Queryable,
  machineId: string,
): Promise<{ programData: ProgramData; version: string } | null> {
  const [row] = await db
    .select({
      programData: machineState.programData,
      name: machineState.programName,
      uploadedAt: machineState.programUploadedAt,
    })
    .from(machineState)
    .where(eq(machineState.machineId, machineId));
  if (!row?.programData) return null;
  return { programData: row.programData, version: `${row.uploadedAt?.getTime() ?? ''}|${row.name ?? ''}` };
}

/** The status a machine confirmed in its answer to a motion command, until its next report. */
export async function updateMachineStatus(db: Queryable, machineId: string, status: SprinklerStatus): Promise<void> {
  await db
    .insert(machineState)
    .values({ machineId, status })
    .onConflictDoUpdate({ target: machineState.machineId, set: { status, changedAt: CHANGED_NOW } });
}

/** What the water accounting reads of a stored report. */
export type StoredReport = { ts: number; status: SprinklerStatus; angle: number; distance: number; flow: number };

/** A machine's reports from `from` up to `until`, both included, oldest first. */
export async function reportsBetween(
  db: Queryable,
  machineId: string,
  from: Date,
  until: Date,
  limit: number,
): Promise<StoredReport[]> {
  const rows = await db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.machineId, machineId), gte(telemetry.ts, from), lte(telemetry.ts, until)))
    .orderBy(asc(telemetry.ts))
    .limit(limit);
  return rows.map((row) => ({
    ts: row.ts.getTime(),
    status: row.status,
    angle: row.angle,
    distance: row.distance,
    flow: row.flow,
  }));
}

/**
 * Each machine's first `limit` reports from its own `from` up to `until`, both included, oldest
 * first, in one statement (the IDs and times as array parameters, a lateral read per machine):
 * what the water accounting reads first for every machine of a run, where a query per machine
 * cost the server a round trip and its building and parsing each. A machine without reports in
 * its range is not in the map.
 */
export async function reportsOfMachinesBetween(
  db: Queryable,
  ranges: { machineId: string; from: Date }[],
  until: Date,
  limit: number,
): Promise<Map<string, StoredReport[]>> {
  const pages = new Map<string, StoredReport[]>();
  if (ranges.length === 0) return pages;
  const answer = await db.execute(sql`
    select machine.id as "machineId", report.*
    from unnest(
      ${sql.param(ranges.map((range) => range.machineId))}::text[],
      ${sql.param(ranges.map((range) => range.from.toISOString()))}::timestamptz[]
    ) as machine(id, after)
    cross join lateral (
      select (extract(epoch from ${telemetry.ts}) * 1000)::float8 as ts, ${telemetry.status} as status,
        ${telemetry.angle} as angle, ${telemetry.distance} as distance, ${telemetry.flow} as flow
      from ${telemetry}
      where ${telemetry.machineId} = machine.id and ${telemetry.ts} >= machine.after
        and ${telemetry.ts} <= ${until.toISOString()}::timestamptz
      order by ${telemetry.ts}
      limit ${limit}::int
    ) as report`);
  type Row = { machineId: string; ts: number | string; status: SprinklerStatus } & Record<
    'angle' | 'distance' | 'flow',
    number | string
  >;
  for (const row of (answer as unknown as { rows: Row[] }).rows) {
    let page = pages.get(row.machineId);
    if (!page) pages.set(row.machineId, (page = []));
    page.push({
      ts: Number(row.ts),
      status: row.status,
      angle: Number(row.angle),
      distance: Number(row.distance),
      flow: Number(row.flow),
    });
  }
  return pages;
}

/** A stored report, every column but the machine's ID; `ts` in ms since the epoch. */
export type TelemetryRow = {
  ts: number;
  status: SprinklerStatus;
  angle: number;
  distance: number;
  speed: number;
  pressure: number;
  flow: number;
};

/** A machine's reports from `from` (included) to `before` (excluded), every column, oldest first. */
export async function rowsBetween(db: Queryable, machineId: string, from: Date, before: Date): Promise<TelemetryRow[]> {
  const { machineId: _machineId, ...columns } = getTableColumns(telemetry);
  const rows = await db
    .select(columns)
    .from(telemetry)
    .where(and(eq(telemetry.machineId, machineId), gte(telemetry.ts, from), lt(telemetry.ts, before)))
    .orderBy(asc(telemetry.ts));
  return rows.map((row) => ({ ...row, ts: row.ts.getTime() }));
}

/**
 * Deletes a machine's reports with these timestamps (ms), and no other, from the DEFAULT
 * partition only (the rows from before partitioning, odd timestamps): a day partition's rows go
 * with their partition (telemetry-partitions.ts). One array parameter.
 */
export async function deleteRowsAt(db: Queryable, machineId: string, timestamps: number[]): Promise<number> {
  if (timestamps.length === 0) return 0;
  const result = await db.execute(sql`
    delete from telemetry_default
    where machine_id = ${machineId}
      and ts = any(${sql.param(timestamps.map((ts) => new Date(ts)))}::timestamptz[])
    returning 1`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

/** The time of a machine's oldest report row from `from` (included) to `before` (excluded), if any. */
export async function oldestRowTime(db: Queryable, machineId: string, from: Date, before: Date): Promise<Date | null> {
  const [row] = await db
    .select({ ts: telemetry.ts })
    .from(telemetry)
    .where(and(eq(telemetry.machineId, machineId), gte(telemetry.ts, from), lt(telemetry.ts, before)))
    .orderBy(asc(telemetry.ts))
    .limit(1);
  return row?.ts ?? null;
}

/** Every machine that has reported anything (its latest state is kept): those that may have report rows. */
export async function reportingMachineIds(db: Queryable): Promise<string[]> {
  const rows = await db.select({ machineId: machineState.machineId }).from(machineState);
  return rows.map((row) => row.machineId);
}
