/**
 * The autopilot's decisions in the activity log (docs/autopilot.md, "Every decision explained"):
 * kept as the decision itself with the moment it was made, and told to each reader in their
 * language when the log is read, so that one entry reads in Polish and in English.
 */
import type { Database } from '../../db/client';
import type { LogEntryRow, LogReader, LogsService } from '../logs';
import type { WatchedMachine } from './autopilot-inputs';
import type { DecisionLog } from './autopilot-watch';
import type { Decision } from './decide';
import { explainDecision, peersSeenBy } from './explain';

type KeptDecision = { at: number; decision: Decision };

export class AutopilotDecisionLog implements DecisionLog {
  constructor(private readonly deps: { db: Database; logs: Pick<LogsService, 'record'>; timeZone: string }) {}

  async tell(machine: WatchedMachine, decision: Decision, now: number): Promise<void> {
    const kept: KeptDecision = { at: now, decision };
    await this.deps.logs.record(this.deps.db, {
      eventType: 'sprinkler_autopilot_decision',
      actorUserId: null,
      sprinkler: { id: machine.sprinklerId, name: machine.name, internalId: machine.internalId },
      event: JSON.stringify(kept),
      details: machine.mode,
      ip: '',
    });
  }

  /**
   * An entry's decision in the reader's language, the pump's peers they are not granted unnamed;
   * one that cannot be read is shown as kept.
   */
  told(entry: Pick<LogEntryRow, 'event'>, reader: LogReader): string {
    try {
      const { at, decision } = JSON.parse(entry.event) as KeptDecision;
      return explainDecision(peersSeenBy(decision, reader), reader.language, at, this.deps.timeZone);
    } catch {
      return entry.event;
    }
  }
}
