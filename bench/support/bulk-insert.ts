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
