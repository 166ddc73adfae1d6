import type { Alert } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { RepeatingJob } from '../../time/repeating-job';
import type { Database } from '../../db/client';
import type { LogsService } from '../logs';
import { type AlertsService, INCIDENT_EVENT_TYPES, alertOfLogEntry } from './alerts.service';

/** How often each instance looks for new alerts: the app hears of one within this of its recording. */
const LOOK_EVERY_MS = 1000;
const ENTRIES_PER_LOOK = 500;

type Listener = (alert: Alert) => void;

/**
 * The live alerts of the users connected to this instance. Whichever instance recorded an
 * incident, every instance reads it from the activity log and tells those of its users who are
 * to hear of it in the app: one look a second per instance, however many users are connected.
 */
export class AlertFeed {
  private readonly listeners = new Map<number, Set<Listener>>();
  private lastSeenId: number | undefined;
  private readonly job = new RepeatingJob(() => this.look(), {
    everyMs: LOOK_EVERY_MS,
    onError: (error) => this.deps.logger.warn({ err: error }, 'reading new alerts failed'),
  });

  constructor(
    private readonly deps: { db: Database; logs: LogsService; alerts: AlertsService; logger: FastifyBaseLogger },
  ) {}

  async start(): Promise<void> {
    // Alerts recorded before this instance started are in the log, not news.
    this.lastSeenId = await this.deps.logs.latestEntryId(this.deps.db);
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Calls the listener with each alert for this user until the returned function is called. */
  subscribe(userId: number, listener: Listener): () => void {
    const own = this.listeners.get(userId) ?? new Set<Listener>();
    own.add(listener);
    this.listeners.set(userId, own);
    return () => {
      own.delete(listener);
      if (own.size === 0) this.listeners.delete(userId);
    };
  }

  /** Looks soon, not at its next second: new alerts are recorded. */
  wake(): void {
    this.job.soon();
  }

  /** Reads the alerts recorded since the last look and tells the connected users they are for. */
  lookOnce(): Promise<void> {
    return this.job.runNow();
  }

  private async look(): Promise<void> {
    const { db, logs, alerts } = this.deps;
    if (this.lastSeenId === undefined) return;
    const entries = await logs.entriesAfter(db, this.lastSeenId, INCIDENT_EVENT_TYPES, ENTRIES_PER_LOOK);
    const last = entries.at(-1);
    if (!last) return;
    this.lastSeenId = last.id;
    if (this.listeners.size === 0) return;
    const news = entries.map(alertOfLogEntry).filter((alert) => alert !== undefined);
    // Who hears of each, read once for the look's machines: not a few queries an alert.
    const recipients = await alerts.recipientsOn(db, [...new Set(news.map((alert) => alert.sprinklerId))]);
    for (const alert of news) {
      for (const userId of recipients(alert.sprinklerId, alert.kind, 'in_app')) {
        for (const listener of this.listeners.get(userId) ?? []) listener(alert);
      }
    }
  }
}
