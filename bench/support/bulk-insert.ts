import type { Database } from '@pivot/server/src/db/client';
import { sql } from 'drizzle-orm';
import type { TelemetryColumns } from './season-telemetry';

/** A PostgreSQL array literal of plain numbers or words (nothing here needs quoting). */
function arrayLiteral(values: readonly (number | string)[]): string {
  return `{${values.join(',')}}`;
}

/**
 * Inserts reports in one statement, a column at a time: each column travels as one array
 * parameter and unnest turns them back into rows. That works alike on PGlite and PostgreSQL
 * (COPY needs a driver extra on node-postgres) and sends ~7 parameters however many rows.
 */
export async function insertTelemetryColumns(db: Database, machineId: string, rows: TelemetryColumns): Promise<void> {
  await db.execute(sql`
    insert into telemetry (machine_id, ts, status, angle, distance, speed, pressure, flow)
    select ${machineId}, to_timestamp(ms / 1000.0), status, angle, distance, speed, pressure, flow
    from unnest(
      ${arrayLiteral(rows.ts)}::float8[],
      ${arrayLiteral(rows.status)}::text[],
      ${arrayLiteral(rows.angle)}::float8[],
      ${arrayLiteral(rows.distance)}::float8[],
      ${arrayLiteral(rows.speed)}::float8[],
      ${arrayLiteral(rows.pressure)}::float8[],
      ${arrayLiteral(rows.flow)}::float8[]
    ) as report(ms, status, angle, distance, speed, pressure, flow)`);
}

/**
 * `count` more machines stored straight in the database, each with a latest state of a machine
 * at rest (online, stopped, a program loaded): what an administrator's list and the grant checks
 * read at a dealer's scale, without simulating, registering and adding each. At rest, they stay
 * online for the 3 minutes a resting machine may be silent, so no incident opens for them
 * during a run of a minute or two.
 */
export async function insertRestingMachines(db: Database, count: number): Promise<void> {
  await db.execute(sql`
    insert into sprinklers (internal_id, name, lat, lng, arm_length)
    select 'REST-' || n, 'Resting ' || n, 52 + (n % 100) * 0.01, 17 + (n / 100) * 0.01, 400
    from generate_series(1, ${count}::int) as n`);
  await db.execute(sql`
    insert into machine_state
      (machine_id, online, presence_at, reported_at, status, angle, distance, speed, pressure, flow,
       program_name, program_data, program_uploaded_at)
    select 'REST-' || n, true, now(), now(), 'stop', (n * 37) % 360, 400, 0, 0.4, 0,
      'Program ' || (n % 7), '{"type":"FeatureCollection","features":[]}'::jsonb, now() - interval '2 days'
    from generate_series(1, ${count}::int) as n`);
}
