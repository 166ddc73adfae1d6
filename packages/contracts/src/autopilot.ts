import { z } from 'zod';

/**
 * A farm's autopilot rules for one machine (issue "Autopilot", docs/autopilot.md): when it may
 * water, what electricity costs when, when rain, wind or frost hold it back, how much water the
 * season allows and how many machines one pump feeds at once. The server's decision core
 * (apps/server/src/modules/autopilot) reads them; each machine's mode and rules are stored and
 * set through `autopilotEndpoints` (docs/autopilot.md, "The modes and where they are set").
 */

/** off: the autopilot says nothing; suggest: it says what it would do; auto: it does it. */
export const AUTOPILOT_MODES = ['off', 'suggest', 'auto'] as const;
export type AutopilotMode = (typeof AUTOPILOT_MODES)[number];
export const AutopilotModeSchema = z.enum(AUTOPILOT_MODES);

/** ISO days of the week: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WeekdaySchema = z.number().int().min(1).max(7);

/**
 * The rules' own messages, in English as every message the contracts write; their Polish is in
 * zod-messages.ts (`CONTRACT_MESSAGES_PL`), which the server and the web's forms read.
 */
export const AUTOPILOT_MESSAGES = {
  localTime: 'Expected a local time such as 22:00',
  emptyWindow: 'A window must not start and end at the same time',
  windowAt24: 'A window cannot start at 24:00',
} as const;

/** A local time of day, HH:MM, 00:00–24:00 (24:00 only ends a window). */
export const LocalTimeSchema = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, AUTOPILOT_MESSAGES.localTime);

/** Minutes since local midnight of a local time (HH:MM). */
export function minutesOfLocalTime(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/**
 * Hours on some days of the week, local time. A window whose end is not after its start runs over
 * midnight (22:00–06:00): it belongs to the day it starts on.
 */
export const WeeklyWindowSchema = z
  .strictObject({
    days: z
      .array(WeekdaySchema)
      .min(1)
      .max(7)
      .default([...WEEKDAYS]),
    start: LocalTimeSchema,
    end: LocalTimeSchema,
  })
  .refine((window) => window.start !== window.end, AUTOPILOT_MESSAGES.emptyWindow)
  .refine((window) => window.start !== '24:00', AUTOPILOT_MESSAGES.windowAt24);
export type WeeklyWindow = z.infer<typeof WeeklyWindowSchema>;

/** The names a tariff's zones are given in the reader's language. */
export const TARIFF_ZONES = ['night', 'day', 'peak', 'off_peak'] as const;
export type TariffZone = (typeof TARIFF_ZONES)[number];

/** The most a kWh may cost in a rule: far above any tariff, a typo below it. */
export const MAX_PRICE_PER_KWH = 100;
const PriceSchema = z.number().min(0).max(MAX_PRICE_PER_KWH);

/** One priced zone of a tariff and the hours it covers. */
export const TariffZoneSchema = z.strictObject({
  zone: z.enum(TARIFF_ZONES),
  pricePerKwh: PriceSchema,
  windows: z.array(WeeklyWindowSchema).min(1).max(14),
});

/**
 * An electricity tariff: its zones' windows (the first zone covering an hour prices it) and the
 * zone of every other hour.
 */
export const TariffSchema = z.strictObject({
  name: z.string().trim().min(1).max(40),
  currency: z.string().trim().min(1).max(8).default('PLN'),
  zones: z.array(TariffZoneSchema).min(1).max(6),
  otherHours: z.strictObject({ zone: z.enum(TARIFF_ZONES), pricePerKwh: PriceSchema }),
});
export type Tariff = z.infer<typeof TariffSchema>;

/** The share of the season's allowance at which every decision carries a warning. */
export const ALLOWANCE_WARNING_SHARE = 0.8;

export const AutopilotRulesSchema = z.strictObject({
  /** When the autopilot may start the machine; every hour of every day by default. */
  allowedHours: z
    .array(WeeklyWindowSchema)
    .min(1)
    .max(14)
    .default([{ days: [...WEEKDAYS], start: '00:00', end: '24:00' }]),
  /** The farm's electricity tariff; null: every hour costs the same. */
  tariff: TariffSchema.nullable().default(null),
  /** Skip a due irrigation when the forecast gives at least `mm` of rain within `withinHours`. */
  rainSkip: z
    .strictObject({ mm: z.number().min(0.5).max(100), withinHours: z.number().int().min(1).max(72) })
    .nullable()
    .default({ mm: 10, withinHours: 24 }),
  /** Pause above this wind (the station's latest reading). */
  wind: z
    .strictObject({ maxMs: z.number().min(1).max(40) })
    .nullable()
    .default({ maxMs: 10 }),
  /** Pause below this temperature (frost). */
  frost: z
    .strictObject({ minC: z.number().min(-10).max(10) })
    .nullable()
    .default({ minC: 2 }),
  /** The season's water for the machine: m³, or mm over its field; null: none set. */
  allowance: z
    .discriminatedUnion('unit', [
      z.strictObject({ unit: z.literal('m3'), amount: z.number().positive().max(10_000_000) }),
      z.strictObject({ unit: z.literal('mm'), amount: z.number().positive().max(5000) }),
    ])
    .nullable()
    .default(null),
  /** The pump or well the machine shares: at most `maxAtOnce` of its machines water at once. */
  pumpGroup: z
    .strictObject({ id: z.string().trim().min(1).max(60), maxAtOnce: z.number().int().min(1).max(50) })
    .nullable()
    .default(null),
  /** The power the machine's pump draws, kW: the plan prices each pass's energy with it; null: not said. */
  pumpKw: z.number().positive().max(2000).nullable().default(null),
});
export type AutopilotRules = z.infer<typeof AutopilotRulesSchema>;
export type AutopilotRulesInput = z.input<typeof AutopilotRulesSchema>;

/** The rules of a machine whose autopilot was never set: the schema's defaults. */
export function defaultAutopilotRules(): AutopilotRules {
  return AutopilotRulesSchema.parse({});
}

/**
 * A machine's autopilot as `GET /sprinkler/{id}/autopilot/` answers it. A machine never set is
 * off, with the rules' defaults, and `updatedAt` null.
 */
export const AutopilotSettingsSchema = z.strictObject({
  mode: AutopilotModeSchema,
  rules: AutopilotRulesSchema,
  /** When the mode or the rules last changed, ms since the epoch; null: never set. */
  updatedAt: z.number().nullable(),
});
export type AutopilotSettings = z.infer<typeof AutopilotSettingsSchema>;

/** What `PUT /sprinkler/{id}/autopilot/` takes: the mode and the whole rules (a rule left out takes its default). */
export const AutopilotSettingsBodySchema = z.strictObject({
  mode: AutopilotModeSchema,
  rules: AutopilotRulesSchema,
});
export type AutopilotSettingsBody = z.infer<typeof AutopilotSettingsBodySchema>;
export type AutopilotSettingsBodyInput = z.input<typeof AutopilotSettingsBodySchema>;

/**
 * Why the autopilot's start failed, as its `start_failed` incident records it (its detail): the
 * command unanswered, refused, answered unreadably, not sent to a machine offline or with the
 * broker away, the machine's clock wrong, another error, or the start cut short (`interrupted`: the
 * server stopped during it, and the machine was found at rest once its claim went stale).
 */
export const AUTOPILOT_START_FAILURES = [
  'unanswered',
  'refused',
  'unreadable',
  'offline',
  'broker_down',
  'clock_wrong',
  'error',
  'interrupted',
] as const;
export type AutopilotStartFailure = (typeof AUTOPILOT_START_FAILURES)[number];

/** What the autopilot can decide for a machine at a moment (docs/autopilot.md, "The decisions"). */
export const AUTOPILOT_DECISION_KINDS = [
  'start',
  'wait',
  'queue_pump',
  'reconcile',
  'skip_rain',
  'pause_wind',
  'pause_frost',
  'resume',
  'refuse',
  'not_due',
  'watering',
] as const;

/** A pass the autopilot would start in the coming days, told in the reader's language. */
export const AutopilotPlannedPassSchema = z.strictObject({
  /** When it starts, and the latest start that still waters in time, ms since the epoch. */
  at: z.number(),
  dueAt: z.number(),
  /** Its due time has passed: it starts as soon as the rules allow. */
  late: z.boolean(),
  /** The sectors it waters. */
  areas: z.array(z.string()),
  waterM3: z.number(),
  /** The water over the machine's field, mm. */
  waterMm: z.number(),
  /** The tariff's zone at the start; null without a tariff. */
  zone: z
    .strictObject({
      tariff: z.string(),
      zone: z.enum(TARIFF_ZONES),
      pricePerKwh: z.number(),
      currency: z.string(),
    })
    .nullable(),
  /** The pump's energy over the pass, kWh, and its cost; null without the pump's power (`pumpKw`). */
  energyKwh: z.number().nullable(),
  cost: z.number().nullable(),
  /** Planned after an earlier pass of the plan: its dates are estimated from the sectors' RAW and ETc. */
  estimated: z.boolean(),
  /**
   * The pass waits for its pump or well (the rules' `pumpGroup`), which feeds as many machines as
   * it may then: when it would start with the pump free, and the machines it waits for (those on
   * the pump, then the more urgent due at once). Those the reader is granted are named (`behind`);
   * the others only counted (`unnamed`): "another machine on this pump". Null when the pass starts
   * when it would with the pump free, or the machine shares no pump.
   */
  queued: z
    .strictObject({
      wouldStartAt: z.number(),
      behind: z.array(z.string()),
      unnamed: z.number().int().nonnegative(),
    })
    .nullable(),
  text: z.string(),
});
export type AutopilotPlannedPass = z.infer<typeof AutopilotPlannedPassSchema>;

/**
 * `GET /sprinkler/{id}/autopilot/plan/`: what the autopilot decides now and the passes it would
 * start over the coming days, by the machine's rules (in `off`, as `suggest` would).
 */
export const AutopilotPlanSchema = z.strictObject({
  mode: AutopilotModeSchema,
  decidedAt: z.number(),
  /** The days the plan looks ahead. */
  days: z.number().int().positive(),
  /**
   * The IANA zone its times are told in (the server's `TIME_ZONE`): the zone of the rules' allowed
   * hours and tariff windows, so a page in another zone still shows a night-zone start at 22:00.
   */
  timeZone: z.string(),
  now: z.strictObject({ kind: z.enum(AUTOPILOT_DECISION_KINDS), text: z.string() }),
  passes: z.array(AutopilotPlannedPassSchema),
  /**
   * Why the advice gives the autopilot nothing to plan with: no crop season, no station, no
   * program, the machine's pace unknown; null when it does.
   */
  reason: z.enum(['no_season', 'no_weather_station', 'no_program', 'pace_unknown']).nullable(),
});
export type AutopilotPlan = z.infer<typeof AutopilotPlanSchema>;

/**
 * The machine page's anchor of its Autopilot card (`/sprinklers/{id}#autopilot`): where an
 * "Irrigation due" alert leads, to the card's one-tap "Water now as advised".
 */
export const AUTOPILOT_CARD_ANCHOR = 'autopilot';

/**
 * Why a machine's autopilot mode changed, as the activity log's `sprinkler_autopilot_updated`
 * entry tells it (`details`): a user set it, or a person's own command or program to a machine
 * in `auto` took the machine over (auto became suggest).
 */
export const AUTOPILOT_CHANGE_REASONS = ['user', 'taken_over'] as const;
export type AutopilotChangeReason = (typeof AUTOPILOT_CHANGE_REASONS)[number];

const EVERY_DAY: number[] = [...WEEKDAYS];
const WORKDAYS: number[] = [1, 2, 3, 4, 5];

/**
 * Ready-made tariffs, as EXAMPLES: Polish two-zone tariffs as distribution operators commonly
 * publish them. Hours differ between operators and contracts (and some move with the season), and
 * the prices here are illustrative gross PLN/kWh: a farmer checks both against their own contract.
 */
export const TARIFF_PRESETS = {
  /** G12: the night zone 22:00–06:00 and 13:00–15:00 every day, the day zone otherwise. */
  G12: {
    name: 'G12',
    currency: 'PLN',
    zones: [
      {
        zone: 'night',
        pricePerKwh: 0.6,
        windows: [
          { days: EVERY_DAY, start: '22:00', end: '06:00' },
          { days: EVERY_DAY, start: '13:00', end: '15:00' },
        ],
      },
    ],
    otherHours: { zone: 'day', pricePerKwh: 1.1 },
  },
  /** C12a, summer hours: the peak zone 08:00–11:00 and 20:00–21:00 on workdays, off-peak otherwise. */
  C12A: {
    name: 'C12a',
    currency: 'PLN',
    zones: [
      {
        zone: 'peak',
        pricePerKwh: 1.25,
        windows: [
          { days: WORKDAYS, start: '08:00', end: '11:00' },
          { days: WORKDAYS, start: '20:00', end: '21:00' },
        ],
      },
    ],
    otherHours: { zone: 'off_peak', pricePerKwh: 0.75 },
  },
  /** C12b: the night zone 22:00–06:00 and 13:00–15:00 every day (as G12), the day zone otherwise. */
  C12B: {
    name: 'C12b',
    currency: 'PLN',
    zones: [
      {
        zone: 'night',
        pricePerKwh: 0.7,
        windows: [
          { days: EVERY_DAY, start: '22:00', end: '06:00' },
          { days: EVERY_DAY, start: '13:00', end: '15:00' },
        ],
      },
    ],
    otherHours: { zone: 'day', pricePerKwh: 1.2 },
  },
} satisfies Record<string, z.input<typeof TariffSchema>>;
