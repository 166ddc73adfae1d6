import { z } from 'zod';
import { IdSchema } from './common';
import type { LogEventType } from './logs';

/**
 * What the server watches every machine for (docs/alerts.md): an alarm it reports, a stop nobody
 * commanded, silence or a lost connection, and pressure below its threshold while it moves.
 */
/**
 * water_stress: a crop zone's mean depletion beyond its RAW (docs/advice.md), checked hourly.
 * irrigation_due: a machine whose autopilot suggests, due to start a pass now (docs/autopilot.md);
 * only users who may control the machine hear of it, since only they can act on it.
 * start_failed: the autopilot, in auto, could not start the machine (its program or its start
 * refused, unanswered or not sent); it ends with the next start that goes through.
 */
export const INCIDENT_KINDS = [
  'alarm',
  'unexpected_stop',
  'offline',
  'low_pressure',
  'water_stress',
  'irrigation_due',
  'start_failed',
] as const;
export const IncidentKindSchema = z.enum(INCIDENT_KINDS);
export type IncidentKind = z.infer<typeof IncidentKindSchema>;

/** An incident begins once and ends once: each phase is one alert. */
export const INCIDENT_PHASES = ['began', 'ended'] as const;
export const IncidentPhaseSchema = z.enum(INCIDENT_PHASES);
export type IncidentPhase = z.infer<typeof IncidentPhaseSchema>;

/** The activity-log event of each incident kind and phase. */
export const INCIDENT_LOG_EVENTS = {
  alarm: { began: 'sprinkler_alarm', ended: 'sprinkler_alarm_cleared' },
  unexpected_stop: { began: 'sprinkler_stopped_unexpectedly', ended: 'sprinkler_moving_again' },
  offline: { began: 'sprinkler_offline', ended: 'sprinkler_back_online' },
  low_pressure: { began: 'sprinkler_low_pressure', ended: 'sprinkler_pressure_restored' },
  water_stress: { began: 'sprinkler_water_stress', ended: 'sprinkler_water_stress_over' },
  irrigation_due: { began: 'sprinkler_irrigation_due', ended: 'sprinkler_irrigation_due_over' },
  start_failed: { began: 'sprinkler_autopilot_start_failed', ended: 'sprinkler_autopilot_started_again' },
} as const satisfies Record<IncidentKind, Record<IncidentPhase, LogEventType>>;

/** The incidents only users with control hear of: a call to act on the machine. */
export const CONTROL_INCIDENTS: readonly IncidentKind[] = ['irrigation_due'];

/** Where an alert reaches a user: the app (bell and toast), e-mail, Web Push. */
export const ALERT_CHANNELS = ['in_app', 'email', 'push'] as const;
export const AlertChannelSchema = z.enum(ALERT_CHANNELS);
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

/**
 * More machines than any farm has; bounds the request. At the largest ID (10 digits and a comma
 * each) a full list is 55 KB, within the server's 64 KiB body limit for such routes.
 */
export const MAX_MUTED_MACHINES = 5000;

const uniqueList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((values) => new Set(values).size === values.length, 'Each value once');

/** Which incidents alert a user, through which channels; machines muted give none. */
export const AlertSettingsSchema = z.strictObject({
  kinds: uniqueList(IncidentKindSchema, INCIDENT_KINDS.length),
  channels: uniqueList(AlertChannelSchema, ALERT_CHANNELS.length),
  mutedMachineIds: uniqueList(IdSchema, MAX_MUTED_MACHINES),
});
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;

/** GET /api/account/alerts/: the user's settings, and whether they are still the administrators' defaults. */
export const AccountAlertSettingsSchema = AlertSettingsSchema.extend({ usesDefaults: z.boolean() });
export type AccountAlertSettings = z.infer<typeof AccountAlertSettingsSchema>;

/** What administrators set for users who have not chosen: kinds and channels (muting is a user's own choice). */
export const AlertDefaultsSchema = AlertSettingsSchema.omit({ mutedMachineIds: true });
export type AlertDefaults = z.infer<typeof AlertDefaultsSchema>;

/**
 * An alert as the app receives it live: the `alert` events of GET /api/alerts/events (server-sent
 * events), for the machines the user may see and the kinds they chose in the app.
 */
export const AlertSchema = z.strictObject({
  /** The activity-log entry that records it. */
  logEntryId: IdSchema,
  kind: IncidentKindSchema,
  phase: IncidentPhaseSchema,
  sprinklerId: IdSchema,
  sprinklerName: z.string(),
  /** What the machine reported: an alarm's reason, the pressure; empty when there is nothing to add. */
  detail: z.string(),
  /** When the incident began or ended, ms since the epoch. */
  timestamp: z.number(),
});
export type Alert = z.infer<typeof AlertSchema>;

/** Base64url without padding, as browsers give a push subscription's keys. */
const Base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url');

/**
 * POST /api/push/subscriptions/ and DELETE (by endpoint): a browser's Web Push subscription, as
 * `PushSubscription.toJSON()` gives it. The endpoint is the push service's https address.
 */
export const PushSubscriptionBodySchema = z.object({
  endpoint: z.url({ protocol: /^https$/, error: 'Expected the https address of a push service' }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64UrlSchema.max(200), auth: Base64UrlSchema.max(100) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBodySchema>;

export const PushUnsubscribeBodySchema = z.strictObject({ endpoint: z.string().max(2048) });
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBodySchema>;

/** GET /api/push/key: the server's VAPID public key (base64url), the browser's applicationServerKey. */
export const PushKeySchema = z.strictObject({ publicKey: z.string() });
export type PushKey = z.infer<typeof PushKeySchema>;

/** What a push message carries; the service worker shows it as a notification and opens `url` on a click. */
export const PushPayloadSchema = z.strictObject({
  title: z.string(),
  body: z.string(),
  /** The app's page to open, such as /sprinklers/12 (/en/sprinklers/12 in English). */
  url: z.string(),
  /** Notifications with one tag replace each other: one per machine and incident kind. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof PushPayloadSchema>;
