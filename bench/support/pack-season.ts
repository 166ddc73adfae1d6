import { TelemetryPacker } from '@pivot/server/src/modules/telemetry/telemetry-packer';
import { telemetryDays } from '@pivot/server/src/modules/telemetry/telemetry-packing.table';
import { machineState, telemetry } from '@pivot/server/src/modules/telemetry/telemetry.table';
import { count, eq, sql } from 'drizzle-orm';
import type { BenchServer } from './bench-server';
import { formatNumber, printFigure, printSection } from './report';
import { timed } from './stats';

const DAY_MS = 86_400_000;
/** The server's default time zone (TIME_ZONE), whose local days the reports are partitioned and packed by. */
const TIME_ZONE = 'Europe/Warsaw';
/** TELEMETRY_PACK_AFTER_DAYS's default: the bench server's own packing waits 100 years. */
const PACK_AFTER_DAYS = 2;

/**
 * Packs every day of the season that is due, as the server does once TELEMETRY_PACK_AFTER_DAYS
 * (2) whole days have passed since the season's last: the product's TelemetryPacker, on the
 * server's own database, partitions and telemetry service, then the planner's statistics as
 * autovacuum would leave them.
 */
export async function packSeason(server: BenchServer, machineId: string, seasonEnd: number): Promise<void> {
  const { app } = server;
  const { db } = app.database;
  // The packer packs the machines that have reported, that is, that have a latest state.
  await db.insert(machineState).values({ machineId }).onConflictDoNothing();
  const packer = new TelemetryPacker({
    db,
    partitions: app.telemetryPartitions,
    timeZone: TIME_ZONE,
    packAfterDays: PACK_AFTER_DAYS,
    logger: app.log,
  });
  const partitionsBefore = (await app.telemetryPartitions.days()).length;
  let days = 0;
  const packMs = await timed(async () => {
    days = await packer.packDue(new Date(seasonEnd + PACK_AFTER_DAYS * DAY_MS + 3_600_000));
  });
  await db.execute(sql`analyze`);
  const [rows] = await db.select({ count: count() }).from(telemetry).where(eq(telemetry.machineId, machineId));
  const [packed] = await db
    .select({ count: count(), reports: sql<number>`sum(${telemetryDays.reportCount})::int` })
    .from(telemetryDays)
    .where(eq(telemetryDays.machineId, machineId));
  printSection('Packing the season');
  printFigure(
    'days packed',
    `${days} in ${formatNumber(packMs / 1000, 1)} s (${formatNumber(packMs / Math.max(days, 1))} ms a day): ${formatNumber(packed!.reports)} reports in ${packed!.count} packed days, ${rows!.count} rows left`,
  );
  printFigure(
    'day partitions',
    `${partitionsBefore} before, ${(await app.telemetryPartitions.days()).length} after (those of the days ahead made)`,
  );
}
