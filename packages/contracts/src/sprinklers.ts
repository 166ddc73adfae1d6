import { z } from 'zod';
import { SPRINKLER_PAGE_SORT_FIELDS, SPRINKLER_STATUSES, SPRINKLER_STATUS_FILTERS } from './sprinkler-fields';
import {
  IdSchema,
  IdTextSchema,
  NumericStringSchema,
  PagingQuerySchema,
  SortOrderSchema,
  listResponseOf,
} from './common';
import { GeoJsonSchema, LineStringFeatureSchema } from './geojson';
import { CurrentProgramDataSchema, ProgramSchema } from './programs';
import { HumiditySensorSchema, WeatherStationSchema } from './weather';

// The machines' states and the table's sorts and filters: in sprinkler-fields.ts, which the web
// app's first paint reads without zod.
export {
  SPRINKLER_PAGE_SORT_FIELDS,
  SPRINKLER_STATUSES,
  SPRINKLER_STATUS_FILTERS,
  type SprinklerPageSort,
  type SprinklerStatus,
  type SprinklerStatusFilter,
} from './sprinkler-fields';

export const SprinklerStatusSchema = z.enum(SPRINKLER_STATUSES);

export const MotionSchema = z.enum(['front', 'back', 'stop']);
export type Motion = z.infer<typeof MotionSchema>;

/** The ID a machine is known by on the message broker, entered by an administrator. */
export const InternalIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, "-" and "_" only');

const SprinklerNameSchema = z.string().trim().min(1).max(100);

/** Live values measured by the machine; null until it has reported them. */
const liveValues = {
  distance: z.number().nullable(),
  angle: z.number().nullable(),
  status: SprinklerStatusSchema.nullable(),
  speed: z.number().nullable(),
  pressure: z.number().nullable(),
  flow: z.number().nullable(),
  /**
   * Whether the machine is online now: connected to the broker, and not silent for longer than
   * three of its report intervals (not part of the spec's shape; the status panel needs it).
   */
  online: z.boolean(),
  /** When the machine measured the values above (its latest report), ms since the epoch; null before its first. */
  reportedAt: z.number().nullable(),
  /** Upload date of the program the machine runs, ms since the epoch. */
  currentProgramTimestamp: z.number().nullable(),
};

/**
 * Below this pressure (bar) for 20 s while it moves, a machine raises a low-pressure incident; 0
 * turns that incident off for the machine. Pivots work at about 1–4 bar at the pivot point.
 */
export const LowPressureBarSchema = z.number().min(0).max(10);
export const DEFAULT_LOW_PRESSURE_BAR = 1;

/** Settings of a machine kept by the server (not part of the spec's shape). */
const machineSettings = {
  /** The low-pressure alert threshold, bar. */
  lowPressureBar: LowPressureBarSchema,
};

/**
 * The list form, plus what the machines table shows beside it (docs/product.md#screens: speed, pressure,
 * flow, active program, upload date), so the table needs no call per machine.
 */
export const SprinklerListItemSchema = z.strictObject({
  id: IdSchema,
  internalId: z.string(),
  name: z.string(),
  lat: NumericStringSchema,
  lng: NumericStringSchema,
  ...liveValues,
  ...machineSettings,
  /** Name of the program the machine runs; its sectors are in the detail's currentProgramData. */
  currentProgramName: z.string().nullable(),
});
export type SprinklerListItem = z.infer<typeof SprinklerListItemSchema>;

export const SprinklerListResponseSchema = z.array(SprinklerListItemSchema);

export const SprinklerStatusFilterSchema = z.enum(SPRINKLER_STATUS_FILTERS);

/**
 * One page of the machines the user may see: sorted (a value not reported yet sorts last either
 * way, then by id), searched in the name, the broker ID and the state as the table words it in
 * the request's language (`MACHINE_STATE_WORDS`), and filtered by state.
 */
export const SprinklerPageQuerySchema = PagingQuerySchema.extend({
  sort: z.enum(SPRINKLER_PAGE_SORT_FIELDS).default('name'),
  order: SortOrderSchema.default('asc'),
  search: z.string().trim().max(100).optional(),
  status: SprinklerStatusFilterSchema.optional(),
  /** Only the machines of this farm (docs/roles.md): the farm the web app is switched to. */
  farm: IdTextSchema.optional(),
});
export type SprinklerPageQuery = z.infer<typeof SprinklerPageQuerySchema>;

/** A machine as the machines table lists it: its list form and the farm it belongs to (none, on no farm yet). */
export const SprinklerPageItemSchema = SprinklerListItemSchema.extend({ farmId: IdSchema.nullable() });
export type SprinklerPageItem = z.infer<typeof SprinklerPageItemSchema>;

/** A page of machines: the number that match, the rows of the page, and which page it is. */
export const SprinklerPageSchema = listResponseOf(SprinklerPageItemSchema).extend({
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export type SprinklerPage = z.infer<typeof SprinklerPageSchema>;

/**
 * What a grant lets its user do with a machine: *watch* sees everything and changes nothing;
 * *control* also moves the machine and sends, creates, edits and deletes its programs.
 * Administrators control every machine without a grant.
 */
export const ACCESS_LEVELS = ['watch', 'control'] as const;
export const AccessLevelSchema = z.enum(ACCESS_LEVELS);
export type AccessLevel = z.infer<typeof AccessLevelSchema>;

/** The users granted a machine, as shown beside it, each with the level of their grant. */
export const AssignedUserSchema = z.strictObject({
  id: IdSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  level: AccessLevelSchema,
});
export type AssignedUser = z.infer<typeof AssignedUserSchema>;

export const SprinklerDetailSchema = z.strictObject({
  id: IdSchema,
  internalId: z.string(),
  name: z.string(),
  lat: NumericStringSchema,
  lng: NumericStringSchema,
  currentPosition: LineStringFeatureSchema.nullable(),
  programs: z.array(ProgramSchema),
  areaMap: GeoJsonSchema,
  ...liveValues,
  ...machineSettings,
  currentProgramData: CurrentProgramDataSchema.nullable(),
  humidity_sensors: z.array(HumiditySensorSchema),
  weather_stations: z.array(WeatherStationSchema),
  users: z.array(AssignedUserSchema),
  /** What the signed-in user may do with this machine (administrators: control). */
  level: AccessLevelSchema,
});
export type SprinklerDetail = z.infer<typeof SprinklerDetailSchema>;

export const SprinklerWithUsersSchema = z.strictObject({
  sprinkler: SprinklerListItemSchema,
  users: z.array(AssignedUserSchema),
  /** The farm the machine belongs to (docs/roles.md); null until the administrator places it in one. */
  farm: z.strictObject({ id: IdSchema, name: z.string() }).nullable(),
});
export type SprinklerWithUsers = z.infer<typeof SprinklerWithUsersSchema>;

export const SPRINKLER_SORT_FIELDS = ['id', 'internalId', 'name'] as const;

export const SprinklerAdminListQuerySchema = PagingQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  sort: z.enum(SPRINKLER_SORT_FIELDS).default('id'),
  order: SortOrderSchema.default('asc'),
  /** Leaves out the machines this user already has access to. */
  exclude: IdTextSchema.optional(),
});
export type SprinklerAdminListQuery = z.infer<typeof SprinklerAdminListQuerySchema>;

export const SprinklerAdminListResponseSchema = listResponseOf(SprinklerWithUsersSchema);
export type SprinklerAdminListResponse = z.infer<typeof SprinklerAdminListResponseSchema>;

export const CreateSprinklerBodySchema = z.strictObject({
  internalId: InternalIdSchema,
  name: SprinklerNameSchema.optional(),
  /** The farm it belongs to; the server's only farm when not said (docs/roles.md). */
  farmId: IdSchema.optional(),
});
export type CreateSprinklerBody = z.infer<typeof CreateSprinklerBodySchema>;

export const UpdateSprinklerBodySchema = z.strictObject({
  name: SprinklerNameSchema.optional(),
  areaMap: GeoJsonSchema.optional(),
  lowPressureBar: LowPressureBarSchema.optional(),
});
export type UpdateSprinklerBody = z.infer<typeof UpdateSprinklerBodySchema>;

export const MotionBodySchema = z.strictObject({ motion: MotionSchema });
export type MotionBody = z.infer<typeof MotionBodySchema>;

/** Granting again with another level changes the grant's level; a grant without one gives control. */
export const PermissionsBodySchema = z.strictObject({
  user: IdSchema,
  action: z.enum(['grant', 'revoke']),
  level: AccessLevelSchema.default('control'),
});
export type PermissionsBody = z.infer<typeof PermissionsBodySchema>;
