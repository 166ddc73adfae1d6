import type {
  MessageExplanation,
  QuarantineExplanation,
  QuarantineListQuery,
  QuarantineListResponse,
  QuarantineReason,
  ReportKind,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { HealthProblem } from '../../http/health';
import { presentQuarantined, visibleText, visibleTexts } from './quarantine.presenter';
import {
  countSetAsideSince,
  deleteQuarantinedBefore,
  insertQuarantined,
  listQuarantined,
} from './quarantine.repository';

/** A machine message that is not to be stored, and why. */
export type SetAsideMessage = {
  machineId: string;
  deviceId: string;
  kind: ReportKind;
  topic: string;
  payload: Buffer;
  reason: Exclude<QuarantineReason, 'rate_limited'>;
  /** In English, for logs. */
  detail: string;
  /** The same as a code and its parameters, which the admin panel words in the reader's language. */
  explanation: MessageExplanation;
};

/**
 * At most this many of one machine's messages are kept a minute (per server instance); the rest
 * of that minute are counted, and one row tells how many, with the last of them. A controller
 * sending garbage every second keeps 10 rows a minute, so neither the table nor the database's
 * work grows with the flood, and a report every few seconds that is always wrong is still kept whole.
 */
export const KEPT_PER_MACHINE_PER_MINUTE = 10;
/** The beginning of a payload that is kept: a whole report, or enough of a larger message to see what it is. */
export const KEPT_PAYLOAD_BYTES = 4096;
/** More set aside than this within a minute in the whole system, and health says the quarantine grows fast. */
export const GROWING_PER_MINUTE = 100;
const MAX_DETAIL_CHARS = 2000;
const MINUTE_MS = 60_000;

/** One machine's minute: how many of its messages were kept, and those that were not. */
type MachineMinute = {
  start: number;
  kept: number;
  notKept: number;
  notKeptByReason: Map<QuarantineReason, number>;
  last: SetAsideMessage | undefined;
};

/**
 * The quarantine: machine messages that broke the protocol or that the database refused, kept
 * for administrators to see what their controllers send, without letting a flood of them cost
 * more than a few rows a minute.
 */
export class QuarantineService {
  private readonly minutes = new Map<string, MachineMinute>();

  constructor(private readonly deps: { db: Database; retentionDays: number; clock?: () => number }) {}

  /** Keeps the message (its payload's beginning, why, when), or counts it when its machine's minute is used up. */
  async setAside(message: SetAsideMessage): Promise<void> {
    const now = this.now();
    let minute = this.minutes.get(message.machineId);
    if (minute && now - minute.start >= MINUTE_MS) {
      this.minutes.delete(message.machineId);
      await this.summarise(minute);
      minute = undefined;
    }
    if (!minute) {
      minute = { start: now, kept: 0, notKept: 0, notKeptByReason: new Map(), last: undefined };
      this.minutes.set(message.machineId, minute);
    }
    if (minute.kept < KEPT_PER_MACHINE_PER_MINUTE) {
      minute.kept += 1;
      await this.keep(message, message.reason, message.detail, message.explanation);
      return;
    }
    minute.notKept += 1;
    minute.notKeptByReason.set(message.reason, (minute.notKeptByReason.get(message.reason) ?? 0) + 1);
    minute.last = message;
  }

  /**
   * Writes the summary of each machine's minute that is over (all of them when `all`), so the
   * count of what was not kept appears even when the flood has stopped.
   */
  async closeMinutes({ all = false } = {}): Promise<void> {
    const now = this.now();
    for (const [machineId, minute] of this.minutes) {
      if (!all && now - minute.start < MINUTE_MS) continue;
      this.minutes.delete(machineId);
      await this.summarise(minute);
    }
  }

  async list(query: QuarantineListQuery): Promise<QuarantineListResponse> {
    const { count, rows } = await listQuarantined(this.deps.db, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { count, data: rows.map(presentQuarantined) };
  }

  /** Deletes what is older than the retention; every instance may run it at any time. */
  prune(): Promise<void> {
    return deleteQuarantinedBefore(this.deps.db, new Date(this.now() - this.deps.retentionDays * 24 * 60 * MINUTE_MS));
  }

  /**
   * What health reports of the quarantine: a problem when many messages were set aside in the
   * last minute by the whole system, whichever instance is asked. The database has every
   * instance's kept rows and the summaries of their floods' minutes that ended; a flood's minute
   * not summarised yet is known only to the instance receiving it, which adds its own.
   */
  async problems(): Promise<HealthProblem[]> {
    const now = this.now();
    const stored = await countSetAsideSince(this.deps.db, new Date(now - MINUTE_MS));
    let notSummarised = 0;
    for (const minute of this.minutes.values()) notSummarised += minute.notKept;
    const count = stored + notSummarised;
    if (count <= GROWING_PER_MINUTE) return [];
    return [
      {
        code: 'quarantine_growing',
        message: `${count} machine messages were set aside in the last minute, by all instances together (more than ${GROWING_PER_MINUTE}): see the admin panel's rejected messages`,
      },
    ];
  }

  private async summarise(minute: MachineMinute): Promise<void> {
    const { last } = minute;
    if (!last) return;
    const reasons = [...minute.notKeptByReason].map(([reason, count]) => `${reason} ${count}`).join(', ');
    const detail =
      `${minute.notKept} more messages within a minute from ${new Date(minute.start).toISOString()} were not ` +
      `kept (at most ${KEPT_PER_MACHINE_PER_MINUTE} a minute per machine are): ${reasons}. ` +
      `The last of them is shown (${last.reason}: ${last.detail})`;
    await this.keep(last, 'rate_limited', detail, {
      code: 'rate_limited',
      notKept: minute.notKept,
      since: minute.start,
      keptPerMinute: KEPT_PER_MACHINE_PER_MINUTE,
      notKeptByReason: [...minute.notKeptByReason].map(([reason, count]) => ({ reason, count })),
      lastReason: last.reason,
      last: last.explanation,
    });
  }

  private async keep(
    message: SetAsideMessage,
    reason: QuarantineReason,
    detail: string,
    explanation: QuarantineExplanation,
  ): Promise<void> {
    await insertQuarantined(this.deps.db, {
      receivedAt: new Date(this.now()),
      machineId: message.machineId,
      deviceId: message.deviceId,
      topic: message.topic,
      kind: message.kind,
      reason,
      detail: visibleText(detail.slice(0, MAX_DETAIL_CHARS)),
      explanation: visibleTexts(explanation),
      payloadHead: message.payload.subarray(0, KEPT_PAYLOAD_BYTES),
      payloadBytes: message.payload.length,
    });
  }

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }
}
