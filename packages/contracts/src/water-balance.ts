import { z } from 'zod';
import { DottedDateSchema } from './common';

/**
 * The soil-water balance of a machine's field (issue 21, docs/advice.md): the state at the end of
 * a day for each crop zone and each sector of the active program, and every cell's depletion.
 */
export const WaterBalanceQuerySchema = z.strictObject({
  /** The day whose end the balance describes; the last complete local day by default. */
  date: DottedDateSchema.optional(),
});
export type WaterBalanceQuery = z.infer<typeof WaterBalanceQuerySchema>;

/** Why a balance holds no zones. */
export const WATER_BALANCE_REASONS = ['no_season', 'no_weather_station'] as const;
export type WaterBalanceReason = (typeof WATER_BALANCE_REASONS)[number];

/**
 * Where the coming days' ET0 and rain came from: the forecast service (`FORECAST_URL`), or the last
 * 7 days' mean ETc and no rain.
 */
export const FORECAST_SOURCES = ['forecast', 'recent-etc'] as const;

/** A crop zone's or a sector's state at the end of the day: mm, mm/day, %. */
export const WaterBalanceAreaSchema = z.strictObject({
  name: z.string(),
  /** Total and readily available water of the root zone, mm (means over the area's cells). */
  taw: z.number(),
  raw: z.number(),
  /** Root zone depletion at the end of the day, mm: mean, least and most over the area's cells. */
  depletion: z.number(),
  depletionMin: z.number(),
  depletionMax: z.number(),
  /** Water stress coefficient of the day (Eq. 84), mean over the cells. */
  ks: z.number(),
  /** Kc · ET0 of the day, mm/day: the crop's evapotranspiration without stress. */
  etc: z.number(),
  et0: z.number(),
  /** The station's rain of the day, mm (before the 0.2 ET0 rule). */
  rain: z.number(),
  /** The water the watermap measured on the area that day, mm (mean over its cells, before the efficiency). */
  applied: z.number(),
  nextIrrigation: DottedDateSchema.nullable(),
  /** mm to reach the root zone on that day, and mm to apply (net ÷ efficiency); null when none is due. */
  netDose: z.number().nullable(),
  grossDose: z.number().nullable(),
  /**
   * The percent timer that applies the gross dose, %, within the machine's range (1–100 %); null
   * while the machine's depth at 100 % is unknown or no dose is due.
   */
  percentTimer: z.number().nullable(),
  /** Passes at that timer that apply the gross dose: more than 1 when one pass at 1 % is not enough; null with no timer. */
  passes: z.number().int().positive().nullable(),
});
export type WaterBalanceArea = z.infer<typeof WaterBalanceAreaSchema>;

/** Why a probe's reading does not correct the model: older than the limit, or not in a crop zone's cell. */
export const PROBE_UNUSED_REASONS = ['stale', 'outside'] as const;

/**
 * A soil probe near the machine and what its reading says of its cell (docs/advice.md, "Probes"):
 * the depletion by Eq. 87 beside the model's, mm, and the offset the zone's cells moved by.
 */
export const WaterBalanceProbeSchema = z.strictObject({
  id: z.string(),
  /** The crop zone whose cell holds the probe; null outside every zone. */
  zone: z.string().nullable(),
  /** [lng, lat] */
  position: z.tuple([z.number(), z.number()]),
  /** When the reading was taken, ms since the epoch: the newest at or before the end of the day. */
  readAt: z.number(),
  /** Volumetric water content, % */
  moisture: z.number(),
  /** The cell's depletion by the probe (Eq. 87) and by the model, mm; offset = probe − model. Null outside a zone. */
  probeDepletion: z.number().nullable(),
  modelDepletion: z.number().nullable(),
  offset: z.number().nullable(),
  /** Whether the offset corrected its zone's cells. */
  used: z.boolean(),
  reason: z.enum(PROBE_UNUSED_REASONS).optional(),
});
export type WaterBalanceProbe = z.infer<typeof WaterBalanceProbeSchema>;

export const WaterBalanceSchema = z.strictObject({
  /** The day described, dd.mm.yyyy. */
  date: DottedDateSchema,
  /** Set when there are no zones: no season runs on that day, or no station reports near the machine. */
  reason: z.enum(WATER_BALANCE_REASONS).nullable(),
  /** The station whose weather was used, and the season days it reported nothing (taken as no ET0, no rain). */
  station: z.string().nullable(),
  missingWeatherDays: z.number().int().nonnegative(),
  /**
   * The last day through `date` the station measured rain (any amount, before the 0.2 ET0 rule),
   * dd.mm.yyyy; null when it measured none since the earliest season's emergence.
   */
  lastRain: DottedDateSchema.nullable(),
  forecast: z.enum(FORECAST_SOURCES),
  /** The machine's depth at 100 %, mm, and where it came from; null when neither set nor learned. */
  applicationDepth: z
    .strictObject({ depthAtFullSpeed: z.number().positive(), source: z.enum(['setting', 'reports']) })
    .nullable(),
  zones: z.array(WaterBalanceAreaSchema),
  sectors: z.array(WaterBalanceAreaSchema),
  /**
   * The cells as the watermap serves them: grid step, m, and per cell [lat, lng, depletion mm, TAW
   * mm, last water]: the whole days before `date` the cell last got the machine's water (0: on
   * `date`), null when none since its season's emergence. (A plain number: the response
   * serialiser cannot tell a bounded integer from null inside a tuple.)
   */
  step: z.number().positive(),
  cells: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number().nullable()])),
  /** The probes near the machine with a reading of the day or the 7 days before; zones and cells are corrected by those used. */
  probes: z.array(WaterBalanceProbeSchema),
});
export type WaterBalance = z.infer<typeof WaterBalanceSchema>;

/**
 * GET /api/sprinkler/next-irrigation/: for each machine of the user's with a crop season running
 * on the last complete day, the earliest next irrigation of its zones (null: none due within the
 * season). Machines without such a season are absent; the table shows "—" for them.
 */
export const NextIrrigationListSchema = z.array(
  z.strictObject({ id: z.number().int().positive(), nextIrrigation: DottedDateSchema.nullable() }),
);
export type NextIrrigationList = z.infer<typeof NextIrrigationListSchema>;

/** Where the smallest and largest percent timers end: a machine's speed setting, %. */
export const PERCENT_TIMER_RANGE = [1, 100] as const;

/** An administrator's setting of a machine's depth at 100 %: mm, or null to learn it from the reports. */
export const ApplicationDepthBodySchema = z.strictObject({
  depthAtFullSpeed: z.number().positive().max(100).nullable(),
});
export type ApplicationDepthBody = z.infer<typeof ApplicationDepthBodySchema>;

/** The machine's depth at 100 %: the setting, what its reports give, and the one the advice uses. */
export const ApplicationDepthSchema = z.strictObject({
  /** mm, typed in by an administrator; null: learned from the reports. */
  setting: z.number().nullable(),
  /** mm, from the machine's reports of the last days (flow, the arm's angular speed, the speed setting); null when too few. */
  learned: z.number().nullable(),
  /** The reports' pairs it was learned from. */
  learnedFrom: z.number().int().nonnegative(),
  /** What the advice uses: the setting, else the learned depth. */
  depthAtFullSpeed: z.number().nullable(),
});
export type ApplicationDepth = z.infer<typeof ApplicationDepthSchema>;
