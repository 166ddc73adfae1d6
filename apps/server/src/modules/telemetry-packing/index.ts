import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { StoredReports } from './stored-reports';
import { TelemetryPacker } from './telemetry-packer';
import { TelemetryPartitions } from './telemetry-partitions';

declare module 'fastify' {
  interface FastifyInstance {
    /** A machine's stored reports over a range, whatever form each day is kept in. */
    storedReports: StoredReports;
    /** Packs machines' past days of reports. */
    telemetryPacker: TelemetryPacker;
    /** The report table's day partitions. */
    telemetryPartitions: TelemetryPartitions;
  }
}

export type { ReportsOfDay, StoredReports } from './stored-reports';
export type { PackOutcome, TelemetryPacker } from './telemetry-packer';
export type { TelemetryPartitions } from './telemetry-partitions';

/** The first run after start: soon enough for "within a minute", late enough not to slow the start. */
const FIRST_RUN_AFTER_MS = 30_000;
const EVERY_MS = 60 * 60_000;

/**
 * Telemetry packing: machines' past days of reports kept packed (packed-day.ts) in place of
 * their rows, and the one reader of a range of reports that every other module uses (the
 * export, the water accounting), which reads rows and packed days alike.
 */
export const telemetryPackingModule = fp(
  async (
    app: FastifyInstance,
    config: Pick<Config, 'timeZone' | 'telemetryPackAfterDays' | 'telemetryRetentionDays'>,
  ) => {
    const { db } = app.database;
    const { telemetry } = app;
    app.decorate('storedReports', new StoredReports({ db, telemetry, timeZone: config.timeZone }));
    const partitions = new TelemetryPartitions({ db, timeZone: config.timeZone, logger: app.log });
    app.decorate('telemetryPartitions', partitions);
    const packer = new TelemetryPacker({
      db,
      telemetry,
      partitions,
      timeZone: config.timeZone,
      packAfterDays: config.telemetryPackAfterDays,
      retentionDays: config.telemetryRetentionDays,
      logger: app.log,
    });
    app.decorate('telemetryPacker', packer);
    // Every instance packs: two packing one machine-day at once store it once (telemetry-packer.ts).
    const job = new RepeatingJob(
      async () => {
        await packer.packDue();
      },
      { everyMs: EVERY_MS, onError: (error) => app.log.error({ err: error }, 'telemetry packing failed') },
    );
    let firstRun: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      // Today's partition and those of the days ahead, before the first report of the day comes.
      await partitions.ensureAhead();
      job.start();
      firstRun = setTimeout(() => void job.runNow().catch(() => undefined), FIRST_RUN_AFTER_MS).unref();
    });
    app.addHook('onClose', async () => {
      clearTimeout(firstRun);
      packer.stop();
      await job.stop();
    });
  },
  { name: 'telemetry-packing', dependencies: ['database', 'telemetry'] },
);
