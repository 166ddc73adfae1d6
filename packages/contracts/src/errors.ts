import { z } from 'zod';

/**
 * Every error the API answers with carries one of these stable codes. The server maps each
 * code to its HTTP status in one place; the web app translates each code in one place.
 */
export const ERROR_STATUS = {
  validation_error: 400,
  /** A polygon that crosses itself, has no area, a hole outside or too many corners (polygon-validity.ts). */
  invalid_geometry: 400,
  /** A crop season names a crop area its machine's map does not have (crop-seasons.ts). */
  crop_area_not_found: 400,
  /** An imported area map whose crop seasons break the rules of a season (area-map-file.ts). */
  invalid_crop_seasons: 400,
  /** A water balance asked for a day after today (the server's time zone): its water and weather are not known yet. */
  date_in_future: 400,
  /** Days asked for that run backwards, span more than a season (MAX_STATION_DAYS) or reach past today. */
  invalid_day_range: 400,
  /** A farm record (farm-records.ts) for a day after today in the server's time zone. */
  record_date_in_future: 400,
  /** A farm record's area that is neither the whole machine, a crop zone running that day nor a sector of the loaded program. */
  record_area_not_found: 400,
  /** A probe record naming a probe that never reported near the machine. */
  probe_not_found: 400,
  /** A prescription file (prescriptions.ts) that is no zipped shapefile, ISOXML task data or GeoJSON, or that is broken. */
  prescription_unreadable: 400,
  /** A prescription zip naming a file outside its folder, or unpacking to more than its limit: not opened. */
  prescription_unsafe_zip: 400,
  /** A prescription whose coordinate system cannot be turned into latitude and longitude. */
  prescription_projection: 400,
  /** A prescription with no polygon that has a number in a rate column (or in the one asked for). */
  prescription_no_rates: 400,
  /** A prescribed rate below 0 or above MAX_PRESCRIPTION_RATE_MM. */
  prescription_rate_out_of_range: 400,
  /** A prescription none of whose polygons lies on the machine's circle. */
  prescription_outside_machine: 400,
  password_rejected: 400,
  invalid_link: 400,
  /** Web Push keys that are not a P-256 public key and a 16-byte secret. */
  push_keys_invalid: 400,
  unauthorized: 401,
  invalid_credentials: 403,
  current_password_required: 400,
  current_password_incorrect: 403,
  /** An authenticator's code or a recovery code that is wrong, used already, or from too far off in time. */
  second_factor_incorrect: 403,
  /** A second step of signing in whose challenge is unknown, expired, used or tried too often: sign in again. */
  second_factor_challenge_expired: 401,
  /** A passkey's answer that does not verify: another site's, a challenge not asked for, a signature or counter that does not hold. */
  passkey_rejected: 403,
  forbidden: 403,
  /** An administrator of a server that requires two-step sign-in (REQUIRE_ADMIN_2FA) who has not set it up: only that is open. */
  second_factor_required: 403,
  csrf_mismatch: 403,
  /** A watch grant: the machine can be seen, not moved or reprogrammed. */
  watch_only: 403,
  not_found: 404,
  user_not_found: 404,
  sprinkler_not_found: 404,
  /** A farm that does not exist, or one the caller is no member of. */
  farm_not_found: 404,
  invitation_not_found: 404,
  dealer_not_found: 404,
  program_not_found: 404,
  record_not_found: 404,
  sprinkler_not_on_broker: 404,
  device_not_found: 404,
  webhook_not_found: 404,
  /** A passkey that is not the signed-in user's (or no passkey to sign in with). */
  passkey_not_found: 404,
  /** A station that never reported, or one no machine the user sees lies near. */
  weather_station_not_found: 404,
  email_taken: 409,
  sprinkler_exists: 409,
  too_many_programs: 409,
  access_not_granted: 409,
  last_admin: 409,
  /** The change would leave a farm without an owner. */
  last_owner: 409,
  farm_name_taken: 409,
  dealer_name_taken: 409,
  /** The account is a member of the farm already: change their role instead. */
  farm_member_exists: 409,
  /** The address has an invitation to the farm waiting: resend it instead. */
  invitation_pending: 409,
  program_name_taken: 409,
  device_exists: 409,
  /** The server's own broker ID: no controller may take it. */
  device_id_reserved: 409,
  /** The broker has an account of this name that the server did not make (an operator's): not taken over unasked. */
  device_account_foreign: 409,
  /** A push endpoint stored for another account with other keys: only its own browser may move it. */
  push_endpoint_taken: 409,
  sprinkler_offline: 409,
  request_in_progress: 409,
  /** The autopilot's one-tap start (POST …/autopilot/start/) of a machine whose autopilot is off. */
  autopilot_off: 409,
  /** The autopilot's one-tap start when it would start no pass now (nothing due, a wait, a skip, no program from the advice…). */
  nothing_due: 409,
  /** The autopilot's one-tap start of a machine in alarm, or with an open alarm, unexpected stop or low pressure. */
  sprinkler_in_alarm: 409,
  /** The autopilot's one-tap start of a machine already moving. */
  already_watering: 409,
  /** The autopilot's one-tap start while a start of the machine is already being made (another tap, tab or the watcher). */
  start_in_progress: 409,
  too_many_webhooks: 409,
  /** An account holds MAX_PASSKEYS passkeys already: remove one first. */
  too_many_passkeys: 409,
  /** A new second factor asked for while one is in force: turn it off first. */
  second_factor_already_enabled: 409,
  /** A code to confirm a second factor that was not set up first (or whose set-up has expired). */
  second_factor_not_started: 409,
  /** New recovery codes, or turning off, asked of an account without a second factor. */
  second_factor_not_enabled: 409,
  payload_too_large: 413,
  /** A body whose polygons have more corners in all than MAX_CORNERS_PER_MESSAGE (polygon-validity.ts). */
  too_many_corners: 413,
  /** A prescription with more than MAX_PRESCRIPTION_CORNERS corners in all. */
  prescription_too_many_corners: 413,
  idempotency_key_reused: 422,
  /** An outbound address (webhook, push endpoint) on loopback, a private network, link-local, multicast… */
  outbound_address_refused: 422,
  /** An outbound address over plain http to a host the operator did not allow. */
  outbound_https_required: 422,
  /** An outbound address whose host name does not resolve. */
  outbound_host_not_found: 422,
  rate_limited: 429,
  /** More live event streams open at once than one account may hold. */
  too_many_streams: 429,
  internal_error: 500,
  sprinkler_processing_error: 500,
  command_refused: 502,
  machine_clock_wrong: 502,
  sprinkler_unresponsive: 504,
  broker_unreachable: 503,
  /** More live event streams open at once on the server instance than it holds (MAX_LIVE_STREAMS), all users together. */
  too_many_streams_on_server: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
/** An outbound address (a webhook, a push endpoint) the server's outbound rules refuse. */
export const OUTBOUND_REFUSALS = [
  'outbound_address_refused',
  'outbound_https_required',
  'outbound_host_not_found',
] as const satisfies readonly ErrorCode[];

/** A command to a machine that did not get through: offline, silent, refused, garbled, or the broker away. */
export const COMMAND_FAILURES = [
  'sprinkler_offline',
  'sprinkler_unresponsive',
  'command_refused',
  'sprinkler_processing_error',
  'machine_clock_wrong',
  'broker_unreachable',
] as const satisfies readonly ErrorCode[];

/**
 * Why the autopilot's one-tap start ("Water now as advised") is refused before any command is
 * sent: the autopilot off, no pass to start now, the machine offline, in alarm or already moving,
 * or a start of it already under way.
 */
export const AUTOPILOT_START_REFUSALS = [
  'autopilot_off',
  'nothing_due',
  'sprinkler_offline',
  'sprinkler_in_alarm',
  'already_watering',
  'start_in_progress',
] as const satisfies readonly ErrorCode[];

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const ValidationIssueSchema = z.strictObject({
  path: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** The body of every error answer except a rejected password change (see PasswordErrorSchema). */
export const ErrorBodySchema = z.strictObject({
  code: ErrorCodeSchema,
  message: z.string(),
  issues: z.array(ValidationIssueSchema).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** docs/product.md#entities: a rejected password (change, activation, reset) lists what is wrong with each field. */
export const PasswordErrorSchema = z.strictObject({
  code: z.literal('password_rejected'),
  message: z.string(),
  oldPassword: z.array(z.string()).optional(),
  newPassword: z.array(z.string()).optional(),
  repeatNewPassword: z.array(z.string()).optional(),
});
export type PasswordError = z.infer<typeof PasswordErrorSchema>;

/** A 400 from a call that sets a password: per-field problems, or an ordinary error. */
export const PasswordCallErrorSchema = z.union([PasswordErrorSchema, ErrorBodySchema]);
