/*
 * The machines' states and the machines table's sorts and filters. No schema here (nor zod): the
 * web app's first paint reads them before zod is fetched. Exported through sprinklers.ts, whose
 * schemas are built from them.
 */

/** stop: at rest; front: working clockwise; back: working counter-clockwise; alarm. */
export const SPRINKLER_STATUSES = ['stop', 'front', 'back', 'alarm'] as const;
export type SprinklerStatus = (typeof SPRINKLER_STATUSES)[number];

/**
 * The columns the machines table sorts by: the machine's own, its live values, its program's name
 * and upload date, and its farm's name (the farms side by side, docs/roles.md).
 */
export const SPRINKLER_PAGE_SORT_FIELDS = [
  'name',
  'internalId',
  'distance',
  'angle',
  'status',
  'speed',
  'pressure',
  'flow',
  'program',
  'uploaded',
  'farm',
] as const;
export type SprinklerPageSort = (typeof SPRINKLER_PAGE_SORT_FIELDS)[number];

/** The machines table's status filter: online and doing this, or offline whatever it last did. */
export const SPRINKLER_STATUS_FILTERS = [...SPRINKLER_STATUSES, 'offline'] as const;
export type SprinklerStatusFilter = (typeof SPRINKLER_STATUS_FILTERS)[number];
