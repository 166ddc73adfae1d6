import { INCIDENT_LOG_EVENTS, type IncidentKind, type IncidentPhase } from '@pivot/contracts';
import type { Queryable } from '../../db/client';
import type { AlertsService } from '../alerts';
import type { LogsService } from '../logs';

export type IncidentRecorders = {
  logs: Pick<LogsService, 'recordAll'>;
  alerts: Pick<AlertsService, 'raiseAll' | 'raiseCommitted'>;
};

/** An incident's phase on a machine, as the log and the alerts tell it. */
export type IncidentPhaseRecord = {
  machine: { id: number; name: string; internalId: string };
  kind: IncidentKind;
  phase: IncidentPhase;
  detail: string;
};

/**
 * Incidents' phases in the activity log and, in the same transaction, their alerts, in a few
 * statements however many: the log's entries in their order, then every alert they raise. How
 * many were recorded.
 */
export async function recordIncidents(
  { logs, alerts }: IncidentRecorders,
  tx: Queryable,
  records: IncidentPhaseRecord[],
): Promise<number> {
  if (records.length === 0) return 0;
  const logEntryIds = await logs.recordAll(
    tx,
    records.map(({ machine, kind, phase, detail }) => ({
      eventType: INCIDENT_LOG_EVENTS[kind][phase],
      actorUserId: null,
      sprinkler: { id: machine.id, name: machine.name, internalId: machine.internalId },
      event: detail,
      ip: '',
    })),
  );
  await alerts.raiseAll(
    tx,
    records.map(({ machine, kind, phase, detail }, index) => ({
      logEntryId: logEntryIds[index]!,
      kind,
      phase,
      sprinklerId: machine.id,
      sprinklerName: machine.name,
      detail,
    })),
  );
  return records.length;
}
