/**
 * The autopilot's decisions in the activity log (docs/autopilot.md, "Every decision explained"):
 * kept as the decision itself with the moment it was made, and told to each reader in their
 * language when the log is read, so that one entry reads in Polish and in English.
 */
import type { Language } from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { LogEntryRow, LogsService } from '../logs';
import type { WatchedMachine } from './autopilot-inputs';
import type { DecisionLog } from './autopilot-watch';
import type { Decision } from './decide';
import { explainDecision } from './explain';

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

  /** An entry's decision in the reader's language; one that cannot be read is shown as kept. */
  told(entry: Pick<LogEntryRow, 'event'>, language: Language): string {
    try {
      const { at, decision } = JSON.parse(entry.event) as KeptDecision;
      return explainDecision(decision, language, at, this.deps.timeZone);
    } catch {
      return entry.event;
    }
  }
}
