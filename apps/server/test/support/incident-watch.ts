import type { Database } from '../../src/db/client';
import { IncidentWatch } from '../../src/modules/incidents/incident-watch';
import type { TestApp } from './test-app';

/**
 * Another instance's incident watch on the test app's database (or on `db`, the same database
 * seen through a wrapper), as a second server or this one restarted has.
 */
export function anotherIncidentWatch(t: TestApp, db: Database = t.database.db): IncidentWatch {
  return new IncidentWatch({
    db,
    sprinklers: t.app.sprinklers,
    telemetry: t.app.telemetry,
    commands: t.app.commands,
    logs: t.app.logs,
    alerts: t.app.alerts,
    listeningSince: () => t.app.gateway.listeningSince,
    logger: t.app.log,
  });
}
