import { IncidentWatch } from '../../src/modules/incidents/incident-watch';
import type { TestApp } from './test-app';

/** Another instance's incident watch on the test app's database, as a second server or this one restarted has. */
export function anotherIncidentWatch(t: TestApp): IncidentWatch {
  return new IncidentWatch({
    db: t.database.db,
    sprinklers: t.app.sprinklers,
    telemetry: t.app.telemetry,
    commands: t.app.commands,
    logs: t.app.logs,
    alerts: t.app.alerts,
    listeningSince: () => t.app.gateway.listeningSince,
    logger: t.app.log,
  });
}
