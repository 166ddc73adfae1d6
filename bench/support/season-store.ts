import type { BenchServer } from './bench-server';
import { insertTelemetryColumns } from './bulk-insert';
import { type SeasonMachine, seasonTelemetry } from './season-telemetry';
import { timed } from './stats';

const DAY_MS = 86_400_000;
const INSERT_CHUNK = 50_000;

/**
 * Stores a season of a machine's reports, every `intervalMs` from `start` for `days` days, as a
 * server that ran the season holds them: in the local days' partitions, which a running server
 * makes ahead (`firstDay`, the UTC midnight of the season's first local date, names them). How
 * long the insert took, and how many of the reports were watering.
 */
export async function storeSeason(
  server: BenchServer,
  machineId: string,
  season: { machine: SeasonMachine; firstDay: number; start: number; days: number; intervalMs: number; seed: number },
): Promise<{ reports: number; insertMs: number; watering: number }> {
  const { app } = server;
  const reports = Math.round((season.days * DAY_MS) / season.intervalMs);
  for (let day = 0; day < season.days; day += 1) {
    await app.telemetryPartitions.ensureDay(new Date(season.firstDay + day * DAY_MS).toISOString().slice(0, 10));
  }
  let watering = 0;
  const insertMs = await timed(async () => {
    const chunks = seasonTelemetry({
      machine: season.machine,
      start: season.start,
      count: reports,
      intervalMs: season.intervalMs,
      chunkSize: INSERT_CHUNK,
      seed: season.seed,
    });
    for (const chunk of chunks) {
      watering += chunk.flow.filter((flow) => flow > 0).length;
      await insertTelemetryColumns(app.database.db, machineId, chunk);
    }
  });
  return { reports, insertMs, watering };
}
