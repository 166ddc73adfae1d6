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

/**
 * Stops the app's own looks, so that the test looks itself, at the moments it chooses: the
 * incident watch's every second and the water stress watch's at the start and hourly both hold
 * the lock a test's look (or the lock a test holds) must find free, longer on a busy machine.
 */
export async function stopOwnLooks(t: TestApp): Promise<void> {
  await Promise.all([t.app.incidents.stop(), t.app.waterStress.stop()]);
}
