import { INCIDENT_LOG_EVENTS, type IncidentKind, type IncidentPhase } from '@pivot/contracts';
import type { Queryable } from '../../db/client';
import type { AlertsService } from '../alerts';
import type { LogsService } from '../logs';

export type IncidentRecorders = { logs: Pick<LogsService, 'record'>; alerts: Pick<AlertsService, 'raise'> };

/** An incident's phase in the activity log and, in the same transaction, its alerts. */
export async function recordIncident(
  { logs, alerts }: IncidentRecorders,
  tx: Queryable,
  machine: { id: number; name: string; internalId: string },
  kind: IncidentKind,
  phase: IncidentPhase,
  detail: string,
): Promise<void> {
  const logEntryId = await logs.record(tx, {
    eventType: INCIDENT_LOG_EVENTS[kind][phase],
    actorUserId: null,
    sprinkler: { id: machine.id, name: machine.name, internalId: machine.internalId },
    event: detail,
    ip: '',
  });
  await alerts.raise(tx, { logEntryId, kind, phase, sprinklerId: machine.id, sprinklerName: machine.name, detail });
}
