import { z } from 'zod';
import { DottedDateSchema } from './common';
import { ProgramDataSchema } from './programs';

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
 * 7 days' mean ET0 and no rain. Either way each coming day's ETc is that day's Kc times its ET0.
 */
export const FORECAST_SOURCES = ['forecast', 'recent-et0'] as const;

/**
 * Why the coming days are the recent ET0: the forecast is off (`FORECAST_URL=off`), it failed (no
 * answer, or one that is not a daily forecast), or its days do not start the day after the one
 * asked for (a date before yesterday).
 */
export const FORECAST_FALLBACKS = ['off', 'failed', 'past_date'] as const;
export type ForecastFallback = (typeof FORECAST_FALLBACKS)[number];

/**
 * The most water one pass of a pivot is advised to give, mm net (docs/advice.md, "One pass's
 * depth"): about 25 mm, the inch extension guides hold a pivot's pass to, beyond which the outer
 * spans' water runs off before it soaks in and a slow turn leaves the last sectors waiting days.
 * A deeper depletion is refilled by the passes that follow.
 */
export const PASS_NET_DEPTH_LIMIT_MM = 25;

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
  /**
   * mm to reach the root zone in that day's pass (the depletion, at most `PASS_NET_DEPTH_LIMIT_MM`),
   * and mm to apply (net ÷ efficiency); null when none is due.
   */
  netDose: z.number().nullable(),
  /** mm of the depletion that day left for the next pass (0: this pass refills it); null when none is due. */
  restDose: z.number().nullable(),
  grossDose: z.number().nullable(),
  /**
   * The percent timer that applies the gross dose, %, within the machine's range (1–100 %); null
   * while the machine's depth at 100 % is unknown or no dose is due.
   */
  percentTimer: z.number().nullable(),
  /** Passes at that timer that apply the gross dose: more than 1 when one pass at 1 % is not enough; null with no timer. */
  passes: z.number().int().positive().nullable(),
  /**
   * The depletion expected early on each of the coming days (after its rain, before water), mm,
   * of the part whose doses are answered: element 0 is the day after `date`, at most 14 days;
   * empty when no dose is due. What a program from the advice refills when the arm gets there.
   */
  expectedDepletion: z.array(z.number()),
});
export type WaterBalanceArea = z.infer<typeof WaterBalanceAreaSchema>;

/**
 * Why a probe's reading does not correct the model: older than the limit, not in a crop zone's
 * cell, or it disagrees with another probe of its zone and the model follows that one.
 */
export const PROBE_UNUSED_REASONS = ['stale', 'outside', 'disagrees'] as const;

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
  /** Present when the reading is one the farm recorded for the day in place of the probe's own. */
  recorded: z.literal(true).optional(),
});
export type WaterBalanceProbe = z.infer<typeof WaterBalanceProbeSchema>;

/**
 * Why the model follows one probe of a zone whose probes disagree: the reading the farm recorded
 * (someone checked it), or the probe nearest the model's own depletion at its cell (the other is
 * the likelier to be wrong: docs/advice.md, "Probes that disagree").
 */
export const PROBE_FOLLOWED_REASONS = ['recorded', 'closest_to_model'] as const;
export type ProbeFollowedReason = (typeof PROBE_FOLLOWED_REASONS)[number];

/** A crop zone whose used probes' depletions differ by more than `threshold`, mm. */
export const ProbeDisagreementSchema = z.strictObject({
  zone: z.string(),
  /** The zone's probes that were fresh enough to correct it, by id. */
  probes: z.array(z.string()),
  /** The most and least of their depletions (Eq. 87) apart, mm. */
  spread: z.number(),
  /** The larger of 10 mm and half the zone's RAW that day, mm. */
  threshold: z.number(),
  /** The probe whose offset moved the zone's cells. */
  follows: z.string(),
  reason: z.enum(PROBE_FOLLOWED_REASONS),
});
export type ProbeDisagreement = z.infer<typeof ProbeDisagreementSchema>;

export const WaterBalanceSchema = z.strictObject({
  /** The day described, dd.mm.yyyy. */
  date: DottedDateSchema,
  /** Set when there are no zones: no season runs on that day, or no station reports near the machine. */
  reason: z.enum(WATER_BALANCE_REASONS).nullable(),
  /** The station whose weather was used, and the season days it reported nothing (taken as no ET0, no rain). */
  station: z.string().nullable(),
  missingWeatherDays: z.number().int().nonnegative(),
  /**
   * The last day through `date` it rained on any crop zone's cell (any amount, before the 0.2 ET0 rule):
   * the station's rain, or a farm gauge's reading in its place; dd.mm.yyyy, null with none since the earliest emergence.
   */
  lastRain: DottedDateSchema.nullable(),
  forecast: z.enum(FORECAST_SOURCES),
  /** Why `forecast` is `recent-et0`; null when the forecast's days were used, or no zone ran. */
  forecastFallback: z.enum(FORECAST_FALLBACKS).nullable(),
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
  /** The zones whose probes disagree, and which one the model follows. */
  probeDisagreements: z.array(ProbeDisagreementSchema),
});
export type WaterBalance = z.infer<typeof WaterBalanceSchema>;

/**
 * GET /api/sprinkler/next-irrigation/[?date=dd.mm.yyyy] (`WaterBalanceQuerySchema`): for each
 * machine of the user's with a crop season running on the day (the last complete day by default),
 * the earliest next irrigation of its zones (null: none due within the season). Machines without
 * such a season are absent; the table shows "—" for them.
 */
export const NextIrrigationListSchema = z.array(
  z.strictObject({ id: z.number().int().positive(), nextIrrigation: DottedDateSchema.nullable() }),
);
export type NextIrrigationList = z.infer<typeof NextIrrigationListSchema>;

/** Where the smallest and largest percent timers end: a machine's speed setting, %. */
export const PERCENT_TIMER_RANGE = [1, 100] as const;

/** The most hours a circle at 100 % may take, h: the slowest machines of the field take about four days. */
export const MAX_HOURS_PER_CIRCLE = 200;

/**
 * An administrator's setting of a machine's pace at 100 %: its depth, mm, and the hours a circle
 * takes, each null to learn it from the reports; `hoursPerCircle` left out stays as it was.
 */
export const ApplicationDepthBodySchema = z.strictObject({
  depthAtFullSpeed: z.number().positive().max(100).nullable(),
  hoursPerCircle: z.number().positive().max(MAX_HOURS_PER_CIRCLE).nullable().optional(),
});
export type ApplicationDepthBody = z.infer<typeof ApplicationDepthBodySchema>;

/** The machine's pace at 100 %: the settings, what its reports give, and what the advice uses. */
export const ApplicationDepthSchema = z.strictObject({
  /** mm, typed in by an administrator; null: learned from the reports. */
  setting: z.number().nullable(),
  /** mm, from the machine's reports of the last days (flow, the arm's angular speed, the speed setting); null when too few. */
  learned: z.number().nullable(),
  /** The reports' pairs it was learned from. */
  learnedFrom: z.number().int().nonnegative(),
  /** What the advice uses: the setting, else the learned depth. */
  depthAtFullSpeed: z.number().nullable(),
  /**
   * Hours a circle takes at 100 %, typed in by an administrator (the maker's timer chart): a
   * machine that has not watered since it was added has none learned, and the advice and the
   * autopilot cannot time its arm without it; null: learned.
   */
  hoursPerCircleSetting: z.number().nullable(),
  /** Hours, from the same reports as the depth; null when too few. */
  hoursPerCircleLearned: z.number().nullable(),
  /** What the advice uses: the setting, else the learned hours. */
  hoursPerCircle: z.number().nullable(),
});
export type ApplicationDepth = z.infer<typeof ApplicationDepthSchema>;

/**
 * Why a program from the advice holds nothing to send: the balance's reasons, no program loaded
 * on the machine (its sectors are the program's), the machine's pace at 100 % not yet learned
 * from its reports (the arm's time to each sector is unknown), or no sector due by the time the
 * arm gets there.
 */
export const PROGRAM_FROM_ADVICE_REASONS = [
  ...WATER_BALANCE_REASONS,
  'no_program',
  'pace_unknown',
  'nothing_due',
] as const;
export type ProgramFromAdviceReason = (typeof PROGRAM_FROM_ADVICE_REASONS)[number];

/**
 * Where a sector's rate came from: the advice (due when the arm gets there: the depletion expected
 * then, refilled), a dry pass (not due: rate 0, crossed at the fastest setting), kept from the
 * machine's program because the advice has no numbers for it (no crop zone's cell in it: to be
 * checked), or a forbidden zone, kept.
 */
export const PROGRAM_RATE_SOURCES = ['advised', 'dry_pass', 'kept', 'forbidden'] as const;
export type ProgramRateSource = (typeof PROGRAM_RATE_SOURCES)[number];

export const ProgramFromAdviceSectorSchema = z.strictObject({
  name: z.string(),
  /** The sector's next irrigation by the balance; null: none due within the season, or no advice. */
  nextIrrigation: DottedDateSchema.nullable(),
  /** Hours from now until the arm, going its way from where it is, gets to the sector at the program's rates. */
  arrivalHours: z.number().nonnegative(),
  /** The program's rate, mm. */
  rate: z.number(),
  source: z.enum(PROGRAM_RATE_SOURCES),
  /** Advised: mm net of the depletion the pass leaves for the next (one pass gives at most `PASS_NET_DEPTH_LIMIT_MM`); else null. */
  restDose: z.number().nullable(),
});
export type ProgramFromAdviceSector = z.infer<typeof ProgramFromAdviceSectorSchema>;

/**
 * GET /api/sprinkler/{id}/program-from-advice/ (docs/advice.md, "A program from the advice"): the
 * machine's loaded program with each sector's rate set by the advice for the coming revolution.
 */
export const ProgramFromAdviceSchema = z.strictObject({
  /** The balance's day, dd.mm.yyyy: the program's name carries it. */
  date: DottedDateSchema,
  reason: z.enum(PROGRAM_FROM_ADVICE_REASONS).nullable(),
  /** Hours the program's revolution takes at its rates; null without a program or a pace. */
  revolutionHours: z.number().nullable(),
  /** The hours past the arm's arrival a sector may be due and still be watered (`PROGRAM_FROM_ADVICE_MARGIN_HOURS`). */
  marginHours: z.number().nonnegative(),
  /** The loaded program's sectors in the order the arm reaches them; forbidden zones included. */
  sectors: z.array(ProgramFromAdviceSectorSchema),
  /** The program to store and send; null when `reason` says why there is none. */
  programData: ProgramDataSchema.nullable(),
});
export type ProgramFromAdvice = z.infer<typeof ProgramFromAdviceSchema>;

/** FAO-56's growth stages (Table 11), as a season day falls in them. */
export const GROWTH_STAGES = ['initial', 'development', 'midSeason', 'lateSeason'] as const;
export type GrowthStageKey = (typeof GROWTH_STAGES)[number];

/**
 * A crop zone's or a sector's season, day by day (docs/advice.md, "The season series"): one
 * element per calendar day from `firstDay` on, the first `measuredDays` balanced as
 * `GET …/water-balance/?date=` balances each day (element `measuredDays − 1` is `date`), the rest
 * foreseen from the coming days' weather up to the next irrigation (or the season's end). Columns,
 * not one object a day: a season of 180 days for every zone and sector stays small. Means over
 * the area's cells as in `WaterBalanceAreaSchema`, mm (Ks and Kc without unit).
 */
export const WaterBalanceSeasonAreaSchema = z.strictObject({
  name: z.string(),
  /** The first day, dd.mm.yyyy: the earliest emergence among the area's zones. */
  firstDay: DottedDateSchema,
  /** How many of the days are measured; those after them are the forecast. */
  measuredDays: z.number().int().nonnegative(),
  /** As the balance of `date` answers it; the forecast days end on it. */
  nextIrrigation: DottedDateSchema.nullable(),
  /** Root zone depletion at the end of the day (Dr), mm; on a forecast day, without water. */
  depletion: z.array(z.number()),
  taw: z.array(z.number()),
  raw: z.array(z.number()),
  /** The station's (or the forecast's) rain, mm, and what of it counts (the 0.2 ET0 rule). */
  rain: z.array(z.number()),
  effectiveRain: z.array(z.number()),
  /** The water the watermap measured, mm, before the efficiency; 0 on forecast days. */
  applied: z.array(z.number()),
  et0: z.array(z.number()),
  etc: z.array(z.number()),
  kc: z.array(z.number()),
  ks: z.array(z.number()),
  /** The growth stage; null on a day a sector's zones are in different stages. */
  stage: z.array(z.enum(GROWTH_STAGES).nullable()),
});
export type WaterBalanceSeasonArea = z.infer<typeof WaterBalanceSeasonAreaSchema>;

/** GET /api/sprinkler/{id}/water-balance/season/[?date=dd.mm.yyyy]: every zone's and sector's season through `date` and on. */
export const WaterBalanceSeasonSchema = z.strictObject({
  date: DottedDateSchema,
  reason: z.enum(WATER_BALANCE_REASONS).nullable(),
  station: z.string().nullable(),
  forecast: z.enum(FORECAST_SOURCES),
  forecastFallback: z.enum(FORECAST_FALLBACKS).nullable(),
  zones: z.array(WaterBalanceSeasonAreaSchema),
  sectors: z.array(WaterBalanceSeasonAreaSchema),
});
export type WaterBalanceSeason = z.infer<typeof WaterBalanceSeasonSchema>;
