import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IncidentDesk } from './incident-desk';
import { IncidentWatch } from './incident-watch';
import { WaterStressWatch } from './water-stress-watch';

export type { IncidentDesk } from './incident-desk';

declare module 'fastify' {
  interface FastifyInstance {
    incidents: IncidentWatch;
    incidentDesk: IncidentDesk;
    waterStress: WaterStressWatch;
  }
}

/**
 * Incidents: the server watches every added machine for an alarm, a stop nobody commanded,
 * silence or a lost connection, and low pressure while it moves (docs/alerts.md), records each
 * as it begins and ends in the activity log, and hands it to the alerts; once an hour, a crop
 * zone drier than its RAW (water_stress, from the water balances the advice module reads).
 */
export const incidentsModule = fp(
  async (app: FastifyInstance) => {
    const watch = new IncidentWatch({
      db: app.database.db,
      sprinklers: app.sprinklers,
      telemetry: app.telemetry,
      commands: app.commands,
      logs: app.logs,
      alerts: app.alerts,
      listeningSince: () => app.gateway.listeningSince,
      logger: app.log,
    });
    app.decorate('incidents', watch);
    const waterStress = new WaterStressWatch({
      db: app.database.db,
      sprinklers: app.sprinklers,
      stress: app.nextIrrigation,
      logs: app.logs,
      alerts: app.alerts,
      logger: app.log,
    });
    app.decorate('waterStress', waterStress);
    app.decorate('incidentDesk', new IncidentDesk({ db: app.database.db, logs: app.logs, alerts: app.alerts }));
    app.health.check(() => watch.problems());
    app.addHook('onReady', async () => {
      watch.start();
      waterStress.start();
    });
    // Before the gateway and the database close: the last look finishes first.
    app.addHook('preClose', () => Promise.all([watch.stop(), waterStress.stop()]).then(() => undefined));
  },
  {
    name: 'incidents',
    dependencies: [
      'health',
      'database',
      'machine-gateway',
      'sprinklers',
      'telemetry',
      'commands',
      'logs',
      'alerts',
      'advice',
    ],
  },
);
