import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { StoredReports } from './stored-reports';
import { TelemetryPacker } from './telemetry-packer';
import { TelemetryPartitions } from './telemetry-partitions';
import { TelemetryService } from './telemetry.service';

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: TelemetryService;
    /** A machine's stored reports over a range, whatever form each day is kept in. */
    storedReports: StoredReports;
    /** Packs machines' past days of reports. */
    telemetryPacker: TelemetryPacker;
    /** The report table's day partitions. */
    telemetryPartitions: TelemetryPartitions;
  }
}

export { isOnline } from './machine-presence';
export type { LiveStateFilter, MachineLiveState, StoredReport, TelemetryRow } from './telemetry.repository';
export { activeProgramOf, epochMs, latestStates, measuredValues, onlineAt } from './telemetry.repository';
export type { MachineStateRow } from './telemetry.table';
export type { TelemetryService } from './telemetry.service';
export type { ReportsOfDay, StoredReports } from './stored-reports';
export type { PackOutcome, TelemetryPacker } from './telemetry-packer';
export type { TelemetryPartitions } from './telemetry-partitions';

/** The packing's first run after start: soon enough for "within a minute", late enough not to slow the start. */
const FIRST_PACKING_AFTER_MS = 30_000;
const PACKING_EVERY_MS = 60 * 60_000;

/**
 * Telemetry: machines' reports, their latest state, and the live stream of them; and the one
 * owner of the stored reports: their table's day partitions, past days kept packed
 * (packed-day.ts) in place of their rows, and the one reader of a range of reports that every
 * other module uses (the export, the water accounting, the advice), which reads rows and packed
 * days alike.
 */
export const telemetryModule = fp(
  async (
    app: FastifyInstance,
    config: Pick<Config, 'timeZone' | 'telemetryPackAfterDays' | 'telemetryRetentionDays'>,
  ) => {
    const { db } = app.database;
    const telemetry = new TelemetryService(db, app.log, app.quarantine);
    app.decorate('telemetry', telemetry);
    app.gateway.handle('telemetry', telemetry.handlers.telemetry);
    app.gateway.handle('presence', telemetry.handlers.presence);
    app.gateway.handle('program', telemetry.handlers.program);
    app.gateway.whenNoneConnected(() => telemetry.allDisconnected());
    app.gateway.watch((event) => telemetry.announce(event));
    app.health.check(() => telemetry.problems());

    app.decorate('storedReports', new StoredReports({ db, timeZone: config.timeZone }));
    const partitions = new TelemetryPartitions({
      db,
      kind: app.database.kind,
      timeZone: config.timeZone,
      logger: app.log,
    });
    app.decorate('telemetryPartitions', partitions);
    const packer = new TelemetryPacker({
      db,
      partitions,
      timeZone: config.timeZone,
      packAfterDays: config.telemetryPackAfterDays,
      retentionDays: config.telemetryRetentionDays,
      logger: app.log,
    });
    app.decorate('telemetryPacker', packer);
    // Every instance packs: two packing one machine-day at once store it once (telemetry-packer.ts).
    const packing = new RepeatingJob(
      async () => {
        await packer.packDue();
      },
      { everyMs: PACKING_EVERY_MS, onError: (error) => app.log.error({ err: error }, 'telemetry packing failed') },
    );
    app.addHook('onReady', async () => {
      // Today's partition and those of the days ahead, before the first report of the day comes.
      await partitions.ensureAhead();
      packing.start({ firstAfterMs: FIRST_PACKING_AFTER_MS });
    });
    app.addHook('onClose', async () => {
      packer.stop();
      await packing.stop();
      // Reports that arrived before the gateway stopped listening are stored before the database closes.
      await telemetry.flush();
    });
  },
  { name: 'telemetry', dependencies: ['database', 'machine-gateway', 'health', 'quarantine'] },
);
