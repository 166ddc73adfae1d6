import {
  ALERT_CHANNELS,
  CONTROL_INCIDENTS,
  type AccessLevel,
  type AccountAlertSettings,
  type Alert,
  type AlertChannel,
  type AlertDefaults,
  type AlertSettings,
  INCIDENT_KINDS,
  INCIDENT_LOG_EVENTS,
  type IncidentKind,
  type IncidentPhase,
  type LogEventType,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import type { AccessService } from '../access';
import type { LogEntryRow } from '../logs';
import type { UsersService } from '../users';
import {
  deleteOwnSettings,
  findDefaults,
  findOwnSettings,
  insertDeliveries,
  saveDefaults,
  saveOwnSettings,
} from './alerts.repository';

/** Until administrators choose: every kind, every channel (push reaches only browsers that asked for it). */
const BUILT_IN_DEFAULTS: AlertDefaults = { kinds: [...INCIDENT_KINDS], channels: [...ALERT_CHANNELS] };

/** The incident and phase each incident log event stands for. */
const INCIDENT_OF_EVENT = new Map<LogEventType, { kind: IncidentKind; phase: IncidentPhase }>(
  INCIDENT_KINDS.flatMap((kind) =>
    (['began', 'ended'] as const).map((phase) => [INCIDENT_LOG_EVENTS[kind][phase], { kind, phase }] as const),
  ),
);
export const INCIDENT_EVENT_TYPES = [...INCIDENT_OF_EVENT.keys()];

/** An incident phase as the incident watch raises it, with the log entry that records it. */
export type RaisedAlert = Omit<Alert, 'timestamp'>;

/** The users to alert of an incident kind on a machine through a channel (any channel: null). */
export type AlertRecipients = (sprinklerId: number, kind: IncidentKind, channel: AlertChannel | null) => number[];

/** The alert a log entry records, if it records one. */
export function alertOfLogEntry(row: LogEntryRow): Alert | undefined {
  const incident = INCIDENT_OF_EVENT.get(row.eventType);
  if (!incident || row.sprinklerId === null) return undefined;
  return {
    logEntryId: row.id,
    ...incident,
    sprinklerId: row.sprinklerId,
    sprinklerName: row.sprinklerName ?? row.sprinklerInternalId ?? '',
    detail: row.event,
    timestamp: row.createdAt.getTime(),
  };
}

/**
 * Who hears of which incident, and how: every user who may see the machine (those granted it,
 * and the administrators), by the kinds and channels each chose, minus the machines each muted.
 */
export class AlertsService {
  private readonly otherChannels: ((tx: Queryable, alerts: RaisedAlert[]) => Promise<void>)[] = [];
  private readonly senders: (() => void)[] = [];

  constructor(private readonly deps: { db: Database; access: AccessService; users: UsersService }) {}

  async settingsOf(user: SignedInUser): Promise<AccountAlertSettings> {
    const own = (await findOwnSettings(this.deps.db, [user.id])).get(user.id);
    if (own) return { ...own, usesDefaults: false };
    return { ...(await this.defaults(this.deps.db)), mutedMachineIds: [], usesDefaults: true };
  }

  async saveSettings(user: SignedInUser, settings: AlertSettings): Promise<AccountAlertSettings> {
    await saveOwnSettings(this.deps.db, user.id, settings);
    return this.settingsOf(user);
  }

  async resetSettings(user: SignedInUser): Promise<AccountAlertSettings> {
    await deleteOwnSettings(this.deps.db, user.id);
    return this.settingsOf(user);
  }

  async defaults(db: Queryable = this.deps.db): Promise<AlertDefaults> {
    return (await findDefaults(db)) ?? BUILT_IN_DEFAULTS;
  }

  async saveDefaults(defaults: AlertDefaults): Promise<AlertDefaults> {
    await saveDefaults(this.deps.db, defaults);
    return this.defaults();
  }

  /**
   * Who is alerted of what on the given machines, read in a few queries however many machines:
   * for a machine, an incident kind and a channel, the users to alert; without a channel,
   * whoever wants this kind from this machine at all (a user's own webhooks follow that).
   */
  async recipientsOn(db: Queryable, sprinklerIds: number[]): Promise<AlertRecipients> {
    const levels = await this.deps.access.levelsOnMachines(db, sprinklerIds);
    const admins = await this.deps.users.activeAdminIds(db);
    const everyone = [...new Set([...[...levels.values()].flatMap((users) => [...users.keys()]), ...admins])];
    const own = await findOwnSettings(db, everyone);
    const defaults = await this.defaults(db);
    // A call to act reaches those who may act: users with control (administrators have it everywhere).
    const grantedFor = (sprinklerId: number, kind: IncidentKind) =>
      [...(levels.get(sprinklerId) ?? new Map<number, AccessLevel>())]
        .filter(([, level]) => level === 'control' || !CONTROL_INCIDENTS.includes(kind))
        .map(([userId]) => userId);
    return (sprinklerId, kind, channel) =>
      [...new Set([...grantedFor(sprinklerId, kind), ...admins])].filter((userId) => {
        const settings = own.get(userId) ?? { ...defaults, mutedMachineIds: [] };
        return (
          settings.kinds.includes(kind) &&
          (channel === null || settings.channels.includes(channel)) &&
          !settings.mutedMachineIds.includes(sprinklerId)
        );
      });
  }

  /**
   * Another way out for every alert raised (webhooks): called in the transaction that records
   * the incidents, after the e-mails and pushes are queued.
   */
  alsoDeliverThrough(channel: (tx: Queryable, alerts: RaisedAlert[]) => Promise<void>): void {
    this.otherChannels.push(channel);
  }

  /**
   * `wake` is called once alerts raised by this instance are committed: what sends them looks
   * at once, not at its next second's look (every instance still looks each second for the
   * alerts that others raised).
   */
  wakeOnRaise(wake: () => void): void {
    this.senders.push(wake);
  }

  /** Alerts were raised in a transaction that has now committed. */
  raiseCommitted(): void {
    for (const wake of this.senders) wake();
  }

  /**
   * Queues the e-mails and pushes of incident phases, in the transaction that records them: they
   * exist exactly when the incidents do, and are sent once (the app hears of them from the log).
   * A few statements however many: a thousand machines going offline at once is one look.
   */
  async raiseAll(tx: Queryable, alerts: RaisedAlert[]): Promise<void> {
    if (alerts.length === 0) return;
    const recipients = await this.recipientsOn(tx, [...new Set(alerts.map((alert) => alert.sprinklerId))]);
    const rows = alerts.flatMap((alert) =>
      (['email', 'push'] as const).flatMap((channel) =>
        recipients(alert.sprinklerId, alert.kind, channel).map((userId) => ({
          userId,
          logEntryId: alert.logEntryId,
          channel,
        })),
      ),
    );
    await insertDeliveries(tx, rows);
    for (const channel of this.otherChannels) await channel(tx, alerts);
  }
}
