/**
 * The autopilot's decision for one machine at one moment (docs/autopilot.md): a pure function of
 * the machine's state, its areas' water balance, the weather, the farm's rules, the season's water
 * and the machines sharing its pump. The rules are looked at in a fixed order, the first that
 * decides wins:
 *
 * 1. safety: a machine offline, in alarm or with an open incident is never started (`refuse`);
 * 2. weather: wind above the limit or frost below it pauses (`pause_wind`, `pause_frost`), and a
 *    machine the autopilot paused resumes once both are back within the limits (`resume`);
 *    a run the farmer started is the farmer's (`watering`); no area due: `not_due`;
 * 3. allowance: in auto, a pass that would go beyond the season's allowance is refused;
 * 4. rain: a due pass is skipped when the forecast gives enough rain soon (`skip_rain`);
 * 5. pump: a machine that would start now while its pump feeds as many as it may, or while more
 *    urgent machines of the group wait, queues (`queue_pump`);
 * 6. timing: the cheapest allowed start that still waters in time (`start` or `wait`).
 *
 * A pass that goes ahead after a rain skip whose rain did not come is said so (`reconcile`); at 80 %
 * of the allowance every decision carries `allowanceWarning`.
 */
import { ALLOWANCE_WARNING_SHARE, type AutopilotRules, type IncidentKind, type TariffZone } from '@pivot/contracts';
import { allowedAt, ruleBoundaries, tariffAt } from './autopilot-rules';

const HOUR_MS = 60 * 60_000;
/** A pass is planned once its latest start falls within this many hours. */
export const PLANNING_HOURS = 24;
/** A station reading older than this cannot tell the wind and the temperature now. */
export const STATION_FRESH_MS = HOUR_MS;
/** A wind pause ends once the wind is this much below the limit (no flapping around it). */
export const WIND_RESUME_MARGIN_MS = 1;
/** A frost pause ends once the temperature is this much above the limit. */
export const FROST_RESUME_MARGIN_C = 1;
/** How far ahead a start is looked for when no allowed hour comes before the due time. */
const LATE_SEARCH_HOURS = 8 * 24;
/** 1 mm over 1 ha is 10 m³. */
const M3_PER_MM_HA = 10;

/** One zone or sector of the machine's active program, as the water balance projects it. */
export type AreaState = {
  name: string;
  /** Root-zone depletion Dr now, mm. */
  depletionMm: number;
  rawMm: number;
  tawMm: number;
  /** The instant (ms) the area passes its trigger (Dr ≥ RAW) on the balance's projection; null: not within it. */
  triggerAt: number | null;
  /** Hours the arm, started now, needs to reach the area. */
  armHours: number;
  /** The net depth the area needs, mm, and the gross depth the machine applies for it. */
  netMm: number;
  grossMm: number;
  hectares: number;
};

export type MachineState = {
  id: number;
  name: string;
  online: boolean;
  alarm: boolean;
  /** The open incident that keeps it from being started (the first of SAFETY_INCIDENTS), if one is. */
  openIncident: IncidentKind | null;
  /** Who started the run going on now, if one is. */
  watering: 'autopilot' | 'farmer' | null;
  /** The autopilot's own pause, if the machine is held by one. */
  pausedBy: 'wind' | 'frost' | null;
  /** The machine's irrigated field, ha: an allowance in mm is over it. */
  hectares: number;
};

/** The station's latest reading. */
export type StationReading = { at: number; windMs: number; temperatureC: number };
/** The forecast's rain in the hour that begins at `at`, mm. */
export type HourlyRain = { at: number; mm: number };
/** The last rain skip not yet followed by a pass: what it expected and what fell since. */
export type RainSkipped = { at: number; forecastMm: number; withinHours: number; fallenMm: number };
/** The other machines of the pump group: those watering now, and those due to start now with their slack. */
export type PumpPeers = {
  watering: readonly { id: number; name: string }[];
  due: readonly { id: number; name: string; slackHours: number }[];
};

export type DecisionInput = {
  now: number;
  timeZone: string;
  mode: 'suggest' | 'auto';
  machine: MachineState;
  areas: readonly AreaState[];
  forecastRain: readonly HourlyRain[];
  station: StationReading | null;
  rules: AutopilotRules;
  /** The water the machine used this season. */
  season: { usedM3: number; usedMm: number };
  lastSkip: RainSkipped | null;
  pump: PumpPeers;
  /**
   * Whether the program from the advice has water to send now: a start is only made with it (the
   * advice may water no sector yet when its day's dose is not due, however near the trigger).
   */
  programReady: boolean;
};

/** The season's allowance as it stands: flagged at 80 %, or when the pass would go beyond it. */
export type AllowanceFigures = {
  unit: 'm3' | 'mm';
  amount: number;
  used: number;
  /** The planned pass's water, in the allowance's unit (0 when none is planned). */
  pass: number;
  /** used ÷ amount, %. */
  share: number;
  wouldPass: boolean;
};

export type ZoneAt = { tariff: string; currency: string; zone: TariffZone; pricePerKwh: number };
export type PassWater = { m3: number; mm: number };

type Planned = {
  /** The areas the pass waters. */
  areas: string[];
  /** The latest start that still reaches every area by its trigger. */
  dueAt: number;
  /** The due time has passed: the pass starts as soon as it may. */
  late: boolean;
  water: PassWater;
};
export type StartDecision = { kind: 'start'; at: number; zone: ZoneAt | null } & Planned;
export type WaitDecision = {
  kind: 'wait';
  until: number;
  /** tariff: a cheaper zone comes in time; allowed_hours: now is outside the allowed hours. */
  reason: 'tariff' | 'allowed_hours';
  zone: ZoneAt | null;
  zoneNow: ZoneAt | null;
} & Planned;
export type QueueDecision = {
  kind: 'queue_pump';
  pump: string;
  maxAtOnce: number;
  wateringNow: string[];
  /** The machines before this one: those watering, then the more urgent of those due. */
  ahead: string[];
  /** Their ids, in the same order: a reader not granted one is not told its name (decisions kept before lack them). */
  aheadIds?: number[];
  slackHours: number;
} & Planned;
export type TimingDecision = StartDecision | WaitDecision | QueueDecision;

export type RefuseReason = 'offline' | 'alarm' | 'incident' | 'no_station' | 'allowance' | 'nothing_to_send';

export type DecisionBody =
  | TimingDecision
  | { kind: 'reconcile'; skippedAt: number; forecastMm: number; fallenMm: number; then: TimingDecision }
  | { kind: 'skip_rain'; rainMm: number; withinHours: number; area: string; depletionMm: number; rawMm: number }
  | { kind: 'pause_wind'; windMs: number; maxMs: number; stopsRunning: boolean }
  | { kind: 'pause_frost'; temperatureC: number; minC: number; stopsRunning: boolean }
  /** The figures are null when no weather limit is set any longer. */
  | { kind: 'resume'; windMs: number | null; temperatureC: number | null }
  /** `incident`: which one, when the reason is an open incident (kept decisions older than it lack it). */
  | { kind: 'refuse'; reason: RefuseReason; incident?: IncidentKind }
  | { kind: 'not_due'; triggerAt: number | null; area: string | null; depletionMm: number | null; rawMm: number | null }
  | { kind: 'watering' };

export type Decision = DecisionBody & { allowanceWarning: AllowanceFigures | null };
export type DecisionKind = Decision['kind'];

/** The latest start that brings the arm to an area by its trigger. */
const latestStartOf = (area: AreaState, trigger: number) => trigger - area.armHours * HOUR_MS;

/** The areas of the pass (latest start within `PLANNING_HOURS`), most urgent first, with their latest starts. */
function passAreas(input: DecisionInput): { area: AreaState; latestStart: number }[] {
  const horizon = input.now + PLANNING_HOURS * HOUR_MS;
  return input.areas
    .flatMap((area) => (area.triggerAt === null ? [] : [{ area, latestStart: latestStartOf(area, area.triggerAt) }]))
    .filter(({ latestStart }) => latestStart <= horizon)
    .sort((a, b) => a.latestStart - b.latestStart);
}

function passWater(input: DecisionInput, areas: readonly AreaState[]): PassWater {
  const m3 = areas.reduce((sum, area) => sum + area.grossMm * area.hectares * M3_PER_MM_HA, 0);
  const hectares = input.machine.hectares;
  return { m3, mm: hectares > 0 ? m3 / (hectares * M3_PER_MM_HA) : 0 };
}

function allowanceFigures(input: DecisionInput, water: PassWater): AllowanceFigures | null {
  const allowance = input.rules.allowance;
  if (allowance === null) return null;
  const used = allowance.unit === 'm3' ? input.season.usedM3 : input.season.usedMm;
  const pass = allowance.unit === 'm3' ? water.m3 : water.mm;
  return {
    unit: allowance.unit,
    amount: allowance.amount,
    used,
    pass,
    share: (100 * used) / allowance.amount,
    wouldPass: used + pass > allowance.amount,
  };
}

function zoneAt(rules: AutopilotRules, timeZone: string, at: number): ZoneAt | null {
  if (rules.tariff === null) return null;
  return { tariff: rules.tariff.name, currency: rules.tariff.currency, ...tariffAt(rules.tariff, timeZone, at) };
}

/**
 * When to start a pass due by `dueAt`: the cheapest allowed instant from now to `dueAt` (the
 * earliest of equal prices), looked for among now and the instants where an allowed window or a
 * tariff zone opens. With no allowed instant before `dueAt`, or `dueAt` gone: the first allowed
 * instant, late.
 */
function timing(input: DecisionInput, planned: Omit<Planned, 'late'>): StartDecision | WaitDecision {
  const { now, timeZone, rules } = input;
  const start = (at: number, late: boolean): StartDecision | WaitDecision => {
    const zone = zoneAt(rules, timeZone, at);
    if (at === now) return { kind: 'start', at, zone, ...planned, late };
    const cheaper = zone !== null && allowedAt(rules, timeZone, now) && !late;
    return {
      kind: 'wait',
      until: at,
      reason: cheaper ? 'tariff' : 'allowed_hours',
      zone,
      zoneNow: zoneAt(rules, timeZone, now),
      ...planned,
      late,
    };
  };
  const candidates = [now, ...ruleBoundaries(rules, timeZone, now, planned.dueAt)].filter(
    (at) => at <= planned.dueAt && allowedAt(rules, timeZone, at),
  );
  if (candidates.length > 0) {
    const price = (at: number) => zoneAt(rules, timeZone, at)?.pricePerKwh ?? 0;
    const best = candidates.reduce((chosen, at) => (price(at) < price(chosen) ? at : chosen));
    const decided = start(best, false);
    // Waiting while now is outside the allowed hours is for the hours, unless a later, cheaper zone was chosen.
    if (decided.kind === 'wait' && !allowedAt(rules, timeZone, now)) {
      decided.reason = best === candidates[0] ? 'allowed_hours' : 'tariff';
    }
    return decided;
  }
  if (allowedAt(rules, timeZone, now)) return start(now, true);
  const next = ruleBoundaries(rules, timeZone, now, now + LATE_SEARCH_HOURS * HOUR_MS).find((at) =>
    allowedAt(rules, timeZone, at),
  );
  return start(next ?? now, true);
}

/**
 * The pump group's order among the machines due to start at once: the least slack (hours to the
 * latest start) first, ties by id. The plan queues its passes by it too.
 */
export function byUrgency(a: { id: number; slackHours: number }, b: { id: number; slackHours: number }): number {
  return a.slackHours - b.slackHours || a.id - b.id;
}

/** The pump group's say on a start now: null when it may start, else its place in the queue. */
function pumpQueue(input: DecisionInput, started: StartDecision): QueueDecision | null {
  const group = input.rules.pumpGroup;
  if (group === null) return null;
  const slackHours = (started.dueAt - input.now) / HOUR_MS;
  const free = group.maxAtOnce - input.pump.watering.length;
  const ranked = [...input.pump.due, { id: input.machine.id, name: input.machine.name, slackHours }].sort(byUrgency);
  const place = ranked.findIndex((peer) => peer.id === input.machine.id);
  if (place < free) return null;
  const { kind: _kind, at: _at, zone: _zone, ...planned } = started;
  const wateringNow = input.pump.watering.map((peer) => peer.name);
  const ahead = [...input.pump.watering, ...ranked.slice(0, place)];
  return {
    kind: 'queue_pump',
    pump: group.id,
    maxAtOnce: group.maxAtOnce,
    wateringNow,
    ahead: ahead.map((peer) => peer.name),
    aheadIds: ahead.map((peer) => peer.id),
    slackHours,
    ...planned,
  };
}

/** The rain the forecast gives from now through `hours` ahead, mm. */
function forecastRainWithin(input: DecisionInput, hours: number): number {
  const until = input.now + hours * HOUR_MS;
  return input.forecastRain
    .filter((hour) => hour.at + HOUR_MS > input.now && hour.at < until)
    .reduce((sum, hour) => sum + hour.mm, 0);
}

/** The weather's say (rule 2): a pause, a resume, or null to go on. */
function weather(input: DecisionInput, due: boolean): DecisionBody | null {
  const { rules, machine, station, now } = input;
  if (rules.wind === null && rules.frost === null) {
    return machine.pausedBy === null ? null : { kind: 'resume', windMs: null, temperatureC: null };
  }
  const acts = machine.pausedBy !== null || machine.watering === 'autopilot' || (machine.watering === null && due);
  if (!acts) return null;
  if (station === null || now - station.at > STATION_FRESH_MS) {
    return machine.watering === null ? { kind: 'refuse', reason: 'no_station' } : null;
  }
  const { windMs, temperatureC } = station;
  const paused = machine.pausedBy !== null;
  // Paused, the machine waits for the margin below the limit; running or idle, the limit itself stops it.
  const windBeyond = rules.wind !== null && windMs > rules.wind.maxMs - (paused ? WIND_RESUME_MARGIN_MS : 0);
  const frostBeyond = rules.frost !== null && temperatureC < rules.frost.minC + (paused ? FROST_RESUME_MARGIN_C : 0);
  const stopsRunning = machine.watering === 'autopilot';
  if (windBeyond) return { kind: 'pause_wind', windMs, maxMs: rules.wind!.maxMs, stopsRunning };
  if (frostBeyond) return { kind: 'pause_frost', temperatureC, minC: rules.frost!.minC, stopsRunning };
  return paused ? { kind: 'resume', windMs, temperatureC } : null;
}

/** The autopilot's decision for a machine now (the rules in the order this file's head gives). */
export function decideNext(input: DecisionInput): Decision {
  const { machine, rules, now } = input;
  const pass = passAreas(input);
  const water = passWater(
    input,
    pass.map(({ area }) => area),
  );
  const allowance = allowanceFigures(input, water);
  const warning =
    allowance !== null && (allowance.share >= 100 * ALLOWANCE_WARNING_SHARE || allowance.wouldPass) ? allowance : null;
  const decided = (body: DecisionBody): Decision => ({ ...body, allowanceWarning: warning });

  // 1. Safety: the farmer's machine is never started in these states.
  if (!machine.online) return decided({ kind: 'refuse', reason: 'offline' });
  if (machine.alarm) return decided({ kind: 'refuse', reason: 'alarm' });
  if (machine.openIncident !== null)
    return decided({ kind: 'refuse', reason: 'incident', incident: machine.openIncident });

  // 2. Weather: pause, hold or resume.
  const held = weather(input, pass.length > 0);
  if (held !== null) return decided(held);
  if (machine.watering !== null) return decided({ kind: 'watering' });
  if (pass.length === 0) {
    const next = input.areas.filter((area) => area.triggerAt !== null).sort((a, b) => a.triggerAt! - b.triggerAt!)[0];
    const driest = [...input.areas].sort((a, b) => b.depletionMm / (b.rawMm || 1) - a.depletionMm / (a.rawMm || 1))[0];
    const shown = next ?? driest;
    return decided({
      kind: 'not_due',
      triggerAt: next?.triggerAt ?? null,
      area: shown?.name ?? null,
      depletionMm: shown?.depletionMm ?? null,
      rawMm: shown?.rawMm ?? null,
    });
  }

  // 3. Allowance: never passed in auto; in suggest the warning says the pass would pass it.
  if (input.mode === 'auto' && allowance?.wouldPass) return decided({ kind: 'refuse', reason: 'allowance' });

  // 4. Rain skip.
  const urgent = pass[0]!.area;
  if (rules.rainSkip !== null) {
    const rainMm = forecastRainWithin(input, rules.rainSkip.withinHours);
    if (rainMm >= rules.rainSkip.mm) {
      return decided({
        kind: 'skip_rain',
        rainMm,
        withinHours: rules.rainSkip.withinHours,
        area: urgent.name,
        depletionMm: urgent.depletionMm,
        rawMm: urgent.rawMm,
      });
    }
  }

  // 6. Timing, then 5. the pump on a start now.
  const dueAt = pass[0]!.latestStart;
  const planned = { areas: pass.map(({ area }) => area.name), dueAt, water };
  const timed = timing(input, planned);
  const then: TimingDecision = (timed.kind === 'start' ? pumpQueue(input, timed) : null) ?? timed;
  // A start with nothing to send would say what does not happen: it waits for the advice's program.
  if (then.kind === 'start' && !input.programReady) return decided({ kind: 'refuse', reason: 'nothing_to_send' });

  // A pass after a rain skip: the rain forecast did not fall (or not enough), and the pass is back.
  if (input.lastSkip !== null && input.lastSkip.at <= now) {
    const { at: skippedAt, forecastMm, fallenMm } = input.lastSkip;
    return decided({ kind: 'reconcile', skippedAt, forecastMm, fallenMm, then });
  }
  return decided(then);
}
