import type { IncidentKind } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { type IncidentRecorders, recordIncidents } from './incident-record';
import {
  claimJobRun,
  countOpenIncidents,
  endIncidents,
  findOpenIncidents,
  incidentKey,
  lockWatch,
  openIncidents,
} from './incidents.repository';

type Machine = { id: number; name: string; internalId: string };

/**
 * Where another module opens and ends the incidents it finds itself (the autopilot's "Irrigation
 * due", docs/autopilot.md), and reads which incidents are open. Each incident begins and ends
 * once however many instances call: under the incident watch's lock, as the watch's own.
 */
export class IncidentDesk {
  constructor(private readonly deps: IncidentRecorders & { db: Database }) {}

  /**
   * Claims a run of a job that runs once across every instance (`job_runs`, as the hourly
   * water-stress look): whether this instance runs it, none having run it within `periodMs`.
   */
  claimJobRun(job: string, now: number, periodMs: number): Promise<boolean> {
    return claimJobRun(this.deps.db, job, new Date(now), periodMs);
  }

  /** The kinds open on each machine, by broker ID. */
  async openKinds(): Promise<Map<string, IncidentKind[]>> {
    const open = await findOpenIncidents(this.deps.db);
    return new Map([...open].map(([machineId, kinds]) => [machineId, [...kinds.keys()]]));
  }

  /** How many incidents are open on each of the machines, by broker ID (none: left out): a dealer's fleet. */
  openCounts(machineIds: string[]): Promise<Map<string, number>> {
    return countOpenIncidents(this.deps.db, machineIds);
  }

  /** Opens the incident unless it is open; whether this call opened it (and alerted of it). */
  async begin(machine: Machine, kind: IncidentKind, detail: string, at: number): Promise<boolean> {
    const raised = await this.deps.db.transaction(async (tx) => {
      await lockWatch(tx);
      const opened = await openIncidents(tx, [{ machineId: machine.internalId, kind, beganAt: new Date(at), detail }]);
      if (!opened.has(incidentKey(machine.internalId, kind))) return 0;
      return recordIncidents(this.deps, tx, [{ machine, kind, phase: 'began', detail }]);
    });
    if (raised > 0) this.deps.alerts.raiseCommitted();
    return raised > 0;
  }

  /** Ends the incident if it is open; whether this call ended it. */
  async end(machine: Machine, kind: IncidentKind, at: number): Promise<boolean> {
    const raised = await this.deps.db.transaction(async (tx) => {
      await lockWatch(tx);
      const incident = (await findOpenIncidents(tx)).get(machine.internalId)?.get(kind);
      if (!incident) return 0;
      const ended = await endIncidents(tx, [incident.id], new Date(at));
      if (!ended.has(incident.id)) return 0;
      return recordIncidents(this.deps, tx, [{ machine, kind, phase: 'ended', detail: '' }]);
    });
    if (raised > 0) this.deps.alerts.raiseCommitted();
    return raised > 0;
  }
}
