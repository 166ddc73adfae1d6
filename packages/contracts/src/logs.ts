import { z } from 'zod';
import { IdSchema, IdTextSchema, PagingQuerySchema, listResponseOf } from './common';
import { FARM_RECORD_KINDS, type FarmRecordKind } from './farm-records';
import { FARM_ROLES, type FarmRole } from './farms';

export const LOG_EVENT_TYPES = [
  'sprinkler_access_granted',
  'sprinkler_access_revoked',
  'program_added',
  'program_updated',
  'program_deleted',
  'program_sent',
  'program_send_failure',
  'sprinkler_adding_unresponsive',
  'sprinkler_added',
  'sprinkler_adding_processing_error',
  'sprinkler_updated',
  'sprinkler_motion_success',
  'sprinkler_motion_failure',
  'user_created',
  'user_updated',
  'user_deleted',
  'user_password_change',
  'user_activated',
  'user_password_reset_requested',
  'device_secret_created',
  'device_secret_replaced',
  'device_removed',
  'device_connection_refused',
  // Incidents (docs/alerts.md): raised by the server, each when it begins and when it ends.
  'sprinkler_alarm',
  'sprinkler_alarm_cleared',
  'sprinkler_stopped_unexpectedly',
  'sprinkler_moving_again',
  'sprinkler_offline',
  'sprinkler_back_online',
  'sprinkler_low_pressure',
  'sprinkler_pressure_restored',
  // `event`: the crop zones whose mean depletion is beyond RAW (docs/advice.md).
  'sprinkler_water_stress',
  'sprinkler_water_stress_over',
  // `event`: the sectors the autopilot, suggesting, would water now (docs/autopilot.md).
  'sprinkler_irrigation_due',
  'sprinkler_irrigation_due_over',
  // `event`: why the autopilot's start failed, as the command's failure tells it (docs/autopilot.md).
  'sprinkler_autopilot_start_failed',
  'sprinkler_autopilot_started_again',
  // A webhook the server paused after failing for a day; its owner is told (docs/alerts.md).
  'webhook_paused',
  // Advice (docs/advice.md): a machine's crop seasons set or changed; `event` names the years.
  'sprinkler_crop_seasons_updated',
  // An administrator set a machine's depth at 100 % (docs/advice.md, "The percent timer"): `event`
  // is the depth in mm ("4.5"), empty when it is learned from the machine's reports again.
  'sprinkler_application_depth_updated',
  // An administrator set the hours a machine's circle takes at 100 % (docs/advice.md, "The
  // percent timer"): `event` is the hours ("20"), empty when they are learned from the reports again.
  'sprinkler_hours_per_circle_updated',
  // The farm's own records (docs/advice.md): `event` is the record (loggedRecord), `details` its kind.
  'sprinkler_record_added',
  'sprinkler_record_updated',
  'sprinkler_record_removed',
  // A machine's autopilot mode or rules changed (docs/autopilot.md): `event` is the new mode
  // ('off', 'suggest', 'auto'), `details` why: 'user' (set on the screen) or 'taken_over' (a
  // person's command or program to a machine in auto turned it to suggest).
  'sprinkler_autopilot_updated',
  // A backup restored (docs/operations.md, "Backups"): recorded when the server next starts.
  'backup_restored',
  // The scheduled backup failed, or the newest backup is older than two days: raised once for the
  // administrators until the next backup succeeds (docs/operations.md, "Backups").
  'backup_failed',
  'backup_overdue',
  // The broker lacked registered controllers' accounts (docs/operations.md, "When the broker loses
  // its accounts"): `event` counts them, `details` those the server made again.
  'broker_accounts_lost',
  // The autopilot's decision for a machine (docs/autopilot.md): `event` is the decision as the
  // server keeps it, told to each reader in their language; `details` the mode it was made in.
  'sprinkler_autopilot_decision',
  // Two-step sign-in (docs/two-factor.md): `event` is the account's email, `details` who did it.
  'user_second_factor_enabled',
  'user_second_factor_disabled',
  'user_second_factor_reset',
  'user_recovery_code_used',
  'user_recovery_codes_renewed',
  // Passkeys (docs/two-factor.md#passkeys): `event` is the account's email, `details` the passkey's name.
  'user_passkey_added',
  'user_passkey_removed',
  'user_passkey_used',
  // Farms (docs/roles.md): the entry names its farm (farmName, as it was then). A member's entry has
  // their email as `event` and their role as `details`; a farm's own, the actor's email as `event`.
  'farm_created',
  'farm_renamed',
  'farm_member_added',
  'farm_member_role_changed',
  'farm_member_removed',
  // A machine moved to another farm: `event` is the actor's email.
  'sprinkler_farm_changed',
  // A farm's owner required two-step sign-in of its members, or no longer: `event` is their email.
  'farm_second_factor_required',
  'farm_second_factor_optional',
  // An invitation to a farm mailed (again) or revoked: `event` is the invited address, `details` the role.
  'farm_invitation_sent',
  'farm_invitation_revoked',
  // A farm granted a dealer access (`event` the dealer's name, `details` the level), or ended it.
  'farm_dealer_granted',
  'farm_dealer_revoked',
  // The server's administrators added a dealer's member or removed one (`event` the address, `details` the dealer's name).
  'dealer_member_added',
  'dealer_member_removed',
] as const;
export const LogEventTypeSchema = z.enum(LOG_EVENT_TYPES);
export type LogEventType = z.infer<typeof LogEventTypeSchema>;

/**
 * The two parameters of each event's subtitle, in the order the subtitle names them.
 * `machine` is read from the entry's sprinkler fields; every other parameter is read from
 * `event` (the first one that is not the machine) or `details` (the second one).
 */
export const LOG_EVENT_PARAMS = {
  sprinkler_access_granted: ['machine', 'user'],
  sprinkler_access_revoked: ['machine', 'user'],
  program_added: ['program', 'machine'],
  program_updated: ['program', 'machine'],
  program_deleted: ['program', 'machine'],
  program_sent: ['program', 'machine'],
  program_send_failure: ['program', 'machine'],
  sprinkler_adding_unresponsive: ['machine', 'actor'],
  sprinkler_added: ['machine', 'actor'],
  sprinkler_adding_processing_error: ['machine', 'actor'],
  sprinkler_updated: ['machine', 'actor'],
  sprinkler_motion_success: ['machine', 'motion'],
  sprinkler_motion_failure: ['machine', 'motion'],
  user_created: ['user', 'actor'],
  user_updated: ['user', 'actor'],
  user_deleted: ['user', 'actor'],
  user_password_change: ['user', 'actor'],
  user_activated: ['user', 'actor'],
  user_password_reset_requested: ['user', 'actor'],
  user_second_factor_enabled: ['user', 'actor'],
  user_second_factor_disabled: ['user', 'actor'],
  user_second_factor_reset: ['user', 'actor'],
  user_recovery_code_used: ['user', 'actor'],
  user_recovery_codes_renewed: ['user', 'actor'],
  user_passkey_added: ['user', 'passkey'],
  user_passkey_removed: ['user', 'passkey'],
  user_passkey_used: ['user', 'passkey'],
  device_secret_created: ['machine', 'actor'],
  device_secret_replaced: ['machine', 'actor'],
  device_removed: ['machine', 'actor'],
  device_connection_refused: ['machine', 'address'],
  sprinkler_alarm: ['machine', 'detail'],
  sprinkler_alarm_cleared: ['machine', 'detail'],
  sprinkler_stopped_unexpectedly: ['machine', 'detail'],
  sprinkler_moving_again: ['machine', 'detail'],
  sprinkler_offline: ['machine', 'detail'],
  sprinkler_back_online: ['machine', 'detail'],
  sprinkler_low_pressure: ['machine', 'detail'],
  sprinkler_pressure_restored: ['machine', 'detail'],
  sprinkler_water_stress: ['machine', 'detail'],
  sprinkler_water_stress_over: ['machine', 'detail'],
  sprinkler_irrigation_due: ['machine', 'detail'],
  sprinkler_irrigation_due_over: ['machine', 'detail'],
  sprinkler_autopilot_start_failed: ['machine', 'detail'],
  sprinkler_autopilot_started_again: ['machine', 'detail'],
  webhook_paused: ['webhook', 'detail'],
  sprinkler_crop_seasons_updated: ['years', 'machine'],
  sprinkler_application_depth_updated: ['machine', 'depth'],
  sprinkler_hours_per_circle_updated: ['machine', 'hours'],
  sprinkler_record_added: ['record', 'machine'],
  sprinkler_record_updated: ['record', 'machine'],
  sprinkler_record_removed: ['record', 'machine'],
  sprinkler_autopilot_updated: ['machine', 'mode'],
  backup_restored: ['backup', 'version'],
  backup_failed: ['error', 'folder'],
  backup_overdue: ['days', 'backup'],
  broker_accounts_lost: ['count', 'restored'],
  sprinkler_autopilot_decision: ['machine', 'decision'],
  farm_created: ['farm', 'actor'],
  farm_renamed: ['farm', 'actor'],
  farm_member_added: ['user', 'farm'],
  farm_member_role_changed: ['user', 'farm'],
  farm_member_removed: ['user', 'farm'],
  sprinkler_farm_changed: ['machine', 'farm'],
  farm_second_factor_required: ['farm', 'actor'],
  farm_second_factor_optional: ['farm', 'actor'],
  farm_invitation_sent: ['user', 'farm'],
  farm_invitation_revoked: ['user', 'farm'],
  farm_dealer_granted: ['dealer', 'farm'],
  farm_dealer_revoked: ['dealer', 'farm'],
  dealer_member_added: ['user', 'dealer'],
  dealer_member_removed: ['user', 'dealer'],
} as const satisfies Record<LogEventType, readonly [string, string]>;

export type LogEventParam = (typeof LOG_EVENT_PARAMS)[LogEventType][number];

export const LogEntrySchema = z.strictObject({
  id: z.number().int().positive(),
  /** ms since the epoch */
  timestamp: z.number(),
  /** The event's subject: a program, a user or a motion (see LOG_EVENT_PARAMS). */
  event: z.string(),
  /** The address the request came from; empty for events the server raised itself. */
  ip: z.string(),
  details: z.string(),
  eventType: LogEventTypeSchema,
  sprinklerName: z.string().nullable(),
  sprinklerInternalId: z.string().nullable(),
  /** The farm the event is about, named as it was then (docs/roles.md). */
  farmName: z.string().nullable(),
  /** The dealer the actor acted for, when they acted through the farm's grant to their dealer. */
  dealerName: z.string().nullable(),
  /** True until the reader has marked this entry, or the whole log, as read. */
  unread: z.boolean(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

/**
 * The named subtitle parameters of an entry, ready for interpolation: `machine` and `farm` from
 * the names the entry kept, the others from `event` and then `details`.
 */
export function logEntryParams(entry: LogEntry): Record<LogEventParam, string> {
  const [first, second] = LOG_EVENT_PARAMS[entry.eventType];
  const machine = entry.sprinklerName ?? entry.sprinklerInternalId ?? '';
  const written = [entry.event, entry.details];
  const valueOf = (param: LogEventParam) =>
    param === 'machine' ? machine : param === 'farm' ? (entry.farmName ?? '') : (written.shift() ?? '');
  return { [first]: valueOf(first), [second]: valueOf(second) } as Record<LogEventParam, string>;
}

/**
 * The variant of an entry's subtitle, for what its two parameters cannot say: a grant names the
 * level it gave, recorded in `details` ('watch' or 'control'; entries written before levels
 * existed hold the administrator's e-mail there and read without one); a depth at 100 % without
 * a value went back to being learned from the machine's reports ('learned'); a farm record names
 * its kind (`details`: 'rain_gauge', 'irrigation' or 'probe'); an autopilot switched from auto to
 * suggest because a person sent the machine a command or a program ('taken_over'); a farm's member
 * added or given a role names the role (`details`).
 */
export function logEntryContext(
  entry: Pick<LogEntry, 'eventType' | 'event' | 'details'>,
): 'watch' | 'control' | 'learned' | 'taken_over' | FarmRecordKind | FarmRole | undefined {
  if (
    entry.eventType === 'farm_member_added' ||
    entry.eventType === 'farm_member_role_changed' ||
    entry.eventType === 'farm_invitation_sent'
  ) {
    return (FARM_ROLES as readonly string[]).includes(entry.details) ? (entry.details as FarmRole) : undefined;
  }
  if (
    entry.eventType === 'sprinkler_application_depth_updated' ||
    entry.eventType === 'sprinkler_hours_per_circle_updated'
  )
    return entry.event === '' ? 'learned' : undefined;
  if (entry.eventType === 'sprinkler_autopilot_updated')
    return entry.details === 'taken_over' ? 'taken_over' : undefined;
  if (RECORD_EVENT_TYPES.has(entry.eventType)) {
    return (FARM_RECORD_KINDS as readonly string[]).includes(entry.details)
      ? (entry.details as FarmRecordKind)
      : undefined;
  }
  if (entry.eventType !== 'sprinkler_access_granted' && entry.eventType !== 'farm_dealer_granted') return undefined;
  return entry.details === 'watch' || entry.details === 'control' ? entry.details : undefined;
}

const RECORD_EVENT_TYPES: ReadonlySet<LogEventType> = new Set([
  'sprinkler_record_added',
  'sprinkler_record_updated',
  'sprinkler_record_removed',
]);

export const LogQuerySchema = PagingQuerySchema.extend({
  type: z.enum(['all', 'unread']).default('all'),
  /** Only the entries about this farm and its machines (docs/roles.md). */
  farm: IdTextSchema.optional(),
});
export type LogQuery = z.infer<typeof LogQuerySchema>;

export const LogListResponseSchema = listResponseOf(LogEntrySchema);
export type LogListResponse = z.infer<typeof LogListResponseSchema>;

/** The most entries one call marks read: more than any list the web app shows at once. */
export const MAX_LOG_READ_IDS = 100;

/**
 * `POST /logs/read/`: with `ids`, only those entries (the ones the reader saw) become read; ids
 * the reader may not see, or that do not exist, are passed over. Without a body, the whole log.
 */
export const LogReadRequestSchema = z.strictObject({
  ids: z.array(IdSchema).min(1).max(MAX_LOG_READ_IDS),
});
export type LogReadRequest = z.infer<typeof LogReadRequestSchema>;
