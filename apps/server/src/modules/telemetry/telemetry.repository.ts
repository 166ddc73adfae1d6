import type { MachineProgramMessage, SprinklerStatus, TelemetryMessage } from '@pivot/contracts';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type MachineStateRow, machineState, telemetry } from './telemetry.table';

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
  const column = (value: (message: TelemetryMessage) => unknown) =>
    sql.param(reports.map((report) => value(report.message)));
  await db.execute(sql`
    insert into ${telemetry} (machine_id, ts, status, angle, distance, speed, pressure, flow)
    select * from unnest(
      ${sql.param(reports.map((report) => report.machineId))}::text[],
      ${column((message) => new Date(message.ts))}::timestamptz[],
      ${column((message) => message.status)}::text[],
      ${column((message) => message.angle)}::float8[],
      ${column((message) => message.distance)}::float8[],
      ${column((message) => message.speed)}::float8[],
      ${column((message) => message.pressure)}::float8[],
      ${column((message) => message.flow)}::float8[]
    )
    on conflict do nothing`);
}

/** Keeps each machine's newest report as its state; an older report arriving late changes nothing. */
export async function updateLatestState(db: Queryable, reports: TelemetryReport[]): Promise<void> {
  const newest = new Map<string, TelemetryMessage>();
  for (const { machineId, message } of reports) {
    const known = newest.get(machineId);
    if (!known || known.ts < message.ts) newest.set(machineId, message);
  }
  if (newest.size === 0) return;
  await db
    .insert(machineState)
    .values(
      [...newest].map(([machineId, message]) => ({
        machineId,
        online: true,
        reportedAt: new Date(message.ts),
        ...measuredValues(message),
        alarm: message.alarm ?? null,
        position: message.position ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: machineState.machineId,
      set: {
        // A controller publishes its presence once, as it connects, and a broker may drop it on the
        // way (Mosquitto does to a subscriber that falls behind): a machine that reports though its
        // presence never arrived is connected, and its silence tells when it is not.
        online: sql`case when ${machineState.presenceAt} is null then true else ${machineState.online} end`,
        reportedAt: sql`excluded.reported_at`,
        status: sql`excluded.status`,
        angle: sql`excluded.angle`,
        distance: sql`excluded.distance`,
        speed: sql`excluded.speed`,
        pressure: sql`excluded.pressure`,
        flow: sql`excluded.flow`,
        alarm: sql`excluded.alarm`,
        position: sql`excluded.position`,
      },
      setWhere: sql`${machineState.reportedAt} is null or ${machineState.reportedAt} < excluded.reported_at`,
    });
}

export async function updatePresence(db: Queryable, machineId: string, online: boolean, at: Date): Promise<void> {
  await db
    .insert(machineState)
    .values({ machineId, online, presenceAt: at })
    .onConflictDoUpdate({ target: machineState.machineId, set: { online, presenceAt: at } });
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
    .onConflictDoUpdate({ target: machineState.machineId, set: values });
}

export async function findMachineStates(db: Queryable, machineIds: string[]): Promise<Map<string, MachineStateRow>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db.select().from(machineState).where(inArray(machineState.machineId, machineIds));
  return new Map(rows.map((row) => [row.machineId, row]));
}

/** The status a machine confirmed in its answer to a motion command, until its next report. */
export async function updateMachineStatus(db: Queryable, machineId: string, status: SprinklerStatus): Promise<void> {
  await db
    .insert(machineState)
    .values({ machineId, status })
    .onConflictDoUpdate({ target: machineState.machineId, set: { status } });
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
