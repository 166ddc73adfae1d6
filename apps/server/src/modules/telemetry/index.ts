import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TelemetryService } from './telemetry.service';

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: TelemetryService;
  }
}

export { isOnline } from './machine-presence';
export type { LiveStateFilter, MachineLiveState, StoredReport, TelemetryRow } from './telemetry.repository';
export { measuredValues } from './telemetry.repository';
/** Also for the machine detail's and the machines list's one query, which join each machine to its latest state. */
export { type MachineStateRow, machineState } from './telemetry.table';
export type { TelemetryService } from './telemetry.service';

/** Telemetry: machines' reports, their latest state, and the live stream of them. */
export const telemetryModule = fp(
  async (app: FastifyInstance) => {
    const telemetry = new TelemetryService(app.database.db, app.log, app.quarantine);
    app.decorate('telemetry', telemetry);
    app.gateway.handle('telemetry', telemetry.handlers.telemetry);
    app.gateway.handle('presence', telemetry.handlers.presence);
    app.gateway.handle('program', telemetry.handlers.program);
    app.gateway.watch((event) => telemetry.announce(event));
    app.health.check(() => telemetry.problems());
    // Reports that arrived before the gateway stopped listening are stored before the database closes.
    app.addHook('onClose', () => telemetry.flush());
  },
  { name: 'telemetry', dependencies: ['database', 'machine-gateway', 'health', 'quarantine'] },
);
