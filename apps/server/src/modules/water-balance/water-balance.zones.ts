import type { ProbeDisagreement, WaterBalanceProbe } from '@pivot/contracts';
import { LEAST_SHOWN_WATER_MM } from '../watermap';
import type { StationDay } from '../weather';
import { type CropSeasonRow, type GrowthStages, seasonCrop, seasonLength, soilWater } from '../crop-seasons';
import type { ForecastDay } from './forecast';
import { withComingDays } from './coming-days';
import { type ZoneRecords, applyCellRecords, gaugeRainOfCells, replaceZoneRain } from './farm-records';
import { DEFAULT_APPLICATION_EFFICIENCY, type Outlook, outlookFromCurves } from './irrigation-advice';
import {
  type ProbeReading,
  type ZoneCellIndex,
  correctByProbes,
  freshReadingsDayByDay,
  seasonStartDepletion,
  zoneCellIndex,
} from './probes';
import { type CellRun, type SeasonCurves, type SeasonWeather, runCells, seasonCurves } from './water-balance';
import type { BalanceInputs, GridCell, WaterGrid } from './water-balance.inputs';
import type { DaySpan, KeptState, KeptStates, ZoneDays } from './water-balance.kept-state';
import {
  type WaterYears,
  type ZonePlan,
  type ZonesWater,
  keptWater,
  waterOfDays,
  weatherDigest,
} from './water-balance.reconcile';

/** A crop zone's season run up to the day asked for. */
export type ZoneRun = {
  name: string;
  cells: GridCell[];
  efficiency: number;
  curves: SeasonCurves;
  /** The season day asked for (1 = emergence): the last one run. */
  lastDay: number;
  referenceEvapotranspiration: number;
  depletion: Float64Array;
  /** Ks and the water measured on each cell, on the last day. */
  stress: Float64Array;
  applied: Float64Array;
  /** Each cell's last day with water (a day number), through the day asked for; -1: none since emergence. */
  lastWater: Int32Array;
  outlook: Outlook;
  /** The emergence, a day number; the crop's stages; the weather of every season day, measured and coming. */
  emergence: number;
  stages: GrowthStages;
  weather: SeasonWeather;
  /** What the gauges of some of its cells read (a sector's): day number → cell's place → mm. */
  gaugeRain: Map<number, Map<number, number>>;
  /** Every season day run, when asked for (the season series): from emergence through `lastDay`. */
  days?: ZoneDays;
};

/**
 * Runs every zone through `lastDay` (a day number), each from its kept state or its emergence,
 * and keeps each season's state at the day before `lastDay` once that day is over (docs/advice.md,
 * "Kept state"); an earlier day asked for does not replace a later state of the same season.
 */
export function runZones(
  keptStates: KeptStates,
  plans: readonly ZonePlan[],
  water: ZonesWater,
  context: { inputs: BalanceInputs; lastDay: number; lastCompleteDay: number; years: WaterYears; withDays?: boolean },
): ZoneRun[] {
  const { inputs, lastDay, lastCompleteDay, years, withDays = false } = context;
  const keepAt = Math.min(lastDay - 1, lastCompleteDay);
  return plans.map((plan) => {
    const { season, cells, emergence, probeStart, state } = plan;
    if (state) keptStates.counts.resumed += 1;
    else keptStates.counts.fromEmergence += 1;
    const laterKept = plan.kept !== undefined && plan.kept.inputs === plan.inputs && plan.kept.validThrough > keepAt;
    // The same day kept at the same revision: nothing to keep anew.
    const unchanged = state !== undefined && keepAt === state.validThrough && water.revision === state.revision;
    const keep =
      keepAt >= emergence && keepAt >= (state?.validThrough ?? Number.NEGATIVE_INFINITY) && !laterKept && !unchanged;
    const sums = water.sumsOf(plan);
    const from = state === undefined ? emergence : state.validThrough + 1;
    const run = runZone(
      season,
      cells,
      emergence,
      lastDay,
      inputs.weatherOf,
      inputs.coming,
      waterOfDays(sums, from, lastDay),
      state,
      probeStart,
      keep ? keepAt : null,
      plan.records,
      { readings: plan.probeDays, grid: inputs.grid, endOfDayOf: inputs.endOfDayOf },
      withDays,
    );
    if (keep) {
      keptStates.set(season.id, {
        inputs: plan.inputs,
        weather: weatherDigest(inputs.weatherOf, emergence, keepAt, { ...plan, endOfDayOf: inputs.endOfDayOf }),
        validThrough: keepAt,
        lastYear: years.lastYear,
        revision: water.revision,
        depletion: run.kept ?? state!.depletion,
        lastWater: run.keptLastWater ?? state!.lastWater,
        ...keptWater(sums, state, keepAt),
        ...(withDays ? { days: run.keptDays ?? state?.days } : {}),
      });
    }
    return run.zone;
  });
}

/**
 * Moves the zones' cells by their probes' readings of the day asked for (docs/advice.md,
 * "Probes"); each day before it was corrected as the zone ran. Gives the probes as the answer
 * shows them, each beside the model's depletion stepped from the day before's corrected one.
 */
export function correctZonesByProbes(
  zones: ZoneRun[],
  plans: readonly ZonePlan[],
  inputs: BalanceInputs,
): { probes: WaterBalanceProbe[]; disagreements: ProbeDisagreement[] } {
  const correction = correctByProbes(
    zones.map((zone, index) => ({
      name: zone.name,
      cells: zone.cells,
      depletion: zone.depletion,
      soil: soilWater(plans[index]!.season.soil),
      rootDepth: zone.curves.rootDepth[zone.lastDay - 1]!,
      totalAvailableWater: zone.curves.totalAvailableWater[zone.lastDay - 1]!,
      readilyAvailableWater: zone.curves.readilyAvailableWater[zone.lastDay - 1]!,
    })),
    inputs.probeReadings,
    inputs.grid,
    inputs.endOfDay,
  );
  zones.forEach((zone, index) => {
    zone.depletion = correction.depletions[index]!;
  });
  return { probes: correction.probes, disagreements: correction.disagreements };
}

/**
 * Runs one zone's cells through the day asked for: from emergence (at field capacity, or where its
 * probes' readings around emergence put it), or from a kept state's day on; the depletion at the
 * end of `keepAt` (a day number) comes back to be kept.
 */
function runZone(
  season: CropSeasonRow,
  cells: GridCell[],
  emergence: number,
  lastDate: number,
  weatherOf: ReadonlyMap<number, StationDay>,
  /** The forecast's days after `lastDate`, in order; the recent ET0 stands for the days it does not cover. */
  coming: readonly ForecastDay[],
  /** The cells' water from the first day run through `lastDate`: `water[dayIndex * count + cell]`. */
  water: Float64Array,
  state: KeptState | undefined,
  /** Without a kept state: the zone's probes' readings around emergence, which the season starts from. */
  startReadings: readonly ProbeReading[],
  keepAt: number | null,
  /** The farm's records on the zone: its rain gauges' readings and other sources' water. */
  records: ZoneRecords,
  /** The zone's probes' readings of each day, which correct each day before `lastDate` at its end. */
  probes: { readings: readonly ProbeReading[]; grid: WaterGrid; endOfDayOf: (day: number) => number },
  /** Whether to give every day run (the kept state's days before them): the season series. */
  withDays = false,
): { zone: ZoneRun; kept: Float64Array | null; keptLastWater: Int32Array | null; keptDays?: ZoneDays } {
  const crop = seasonCrop(season.crop, season.depletionFraction);
  const soil = soilWater(season.soil);
  const efficiency = season.efficiency ?? DEFAULT_APPLICATION_EFFICIENCY;
  const days = lastDate - emergence + 1;
  const count = cells.length;
  const measured = {
    referenceEvapotranspiration: new Float64Array(days),
    rain: new Float64Array(days),
    wind: new Float64Array(days),
    minHumidity: new Float64Array(days),
    reported: new Array<boolean>(days),
  };
  for (let index = 0; index < days; index += 1) {
    // A day the station did not report counts as no ET0 and no rain; the answer says how many.
    const day = weatherOf.get(emergence + index);
    measured.reported[index] = day !== undefined;
    measured.referenceEvapotranspiration[index] = day?.referenceEvapotranspiration ?? 0;
    measured.rain[index] = day?.rain ?? 0;
    measured.wind[index] = day?.wind ?? Number.NaN;
    measured.minHumidity[index] = day?.minHumidity ?? Number.NaN;
  }
  replaceZoneRain(measured.rain, records, emergence);
  const seasonWeather = withComingDays(measured, coming, seasonLength(crop.parameters.stages));
  const curves = seasonCurves(crop, soil, seasonWeather);
  // Season days (1 = emergence) run: from the kept state's next day, or from emergence.
  const firstRun = state === undefined ? 1 : state.validThrough - emergence + 2;
  /** The cells' water from season day `from` through `to`, day by day. */
  const appliedOf = (from: number, to: number) =>
    water.subarray((from - firstRun) * count, (to - firstRun + 1) * count);
  const netRainOf = (from: number, to: number) =>
    netRain && netRain.subarray((from - firstRun) * count, (to - firstRun + 1) * count);
  const probeStart = state ? null : seasonStartDepletion(startReadings, soil, curves.rootDepth[0]!);
  let startDepletion: Float64Array | undefined =
    state?.depletion ?? (probeStart === null ? undefined : new Float64Array(count).fill(probeStart));
  let kept: Float64Array | null = null;
  let legStart = firstRun;
  const keepDay = keepAt === null ? null : keepAt - emergence + 1;
  // Each cell's last day with water: the kept state's, then the days run, one pass over their water.
  const lastWater = state ? Int32Array.from(state.lastWater) : new Int32Array(count).fill(-1);
  let keptLastWater: Int32Array | null = null;
  for (let day = firstRun; day <= days; day += 1) {
    const offset = (day - firstRun) * count;
    // Water the watermap shows (0.1 mm and more once rounded) counts; less would be a day the map shows dry.
    for (let cell = 0; cell < count; cell += 1) {
      if (water[offset + cell]! >= LEAST_SHOWN_WATER_MM) lastWater[cell] = emergence + day - 1;
    }
    if (day === keepDay) keptLastWater = Int32Array.from(lastWater);
  }
  // After the last water is found: that is the machine's water, which the map shows.
  const netRain = applyCellRecords(
    records,
    water,
    { first: emergence + firstRun - 1, last: lastDate, count },
    (day) => measured.rain[day - emergence]!,
    (day) => measured.referenceEvapotranspiration[day - emergence]!,
  );
  // Each reading and each cell looked at once for the whole run, not again on every day.
  const freshReadings = freshReadingsDayByDay(probes.readings);
  let cellIndex: ZoneCellIndex | undefined;
  const correctAtEndOf = (seasonDay: number, depletion: Float64Array): boolean => {
    // The day asked for is corrected once run (`correctZonesByProbes`), with its probes shown.
    if (seasonDay >= days || probes.readings.length === 0) return false;
    const day = emergence + seasonDay - 1;
    const endOfDay = probes.endOfDayOf(day);
    const fresh = freshReadings.at(endOfDay);
    if (fresh.length === 0) return false;
    const at = seasonDay - 1;
    const zone = {
      name: season.name,
      cells,
      depletion,
      soil,
      rootDepth: curves.rootDepth[at]!,
      totalAvailableWater: curves.totalAvailableWater[at]!,
      readilyAvailableWater: curves.readilyAvailableWater[at]!,
    };
    cellIndex ??= zoneCellIndex([zone]);
    const [corrected] = correctByProbes([zone], fresh, probes.grid, endOfDay, cellIndex).depletions;
    if (corrected === undefined || corrected === depletion) return false;
    depletion.set(corrected);
    return true;
  };
  let firstLeg: CellRun | null = null;
  if (keepDay !== null && keepDay >= firstRun && keepDay < days) {
    // Two legs, so the kept depletion is the run's own at full precision.
    const leg = runCells(
      curves,
      { count, applied: appliedOf(legStart, keepDay), netRain: netRainOf(legStart, keepDay) },
      { efficiency, firstDay: legStart, lastDay: keepDay, startDepletion, correctAtEndOf },
    );
    kept = leg.finalDepletion;
    firstLeg = leg;
    startDepletion = kept;
    legStart = keepDay + 1;
  }
  const applied = appliedOf(legStart, days);
  const run = runCells(
    curves,
    { count, applied, netRain: netRainOf(legStart, days) },
    { efficiency, firstDay: legStart, lastDay: days, startDepletion, correctAtEndOf },
  );
  const lastOffset = (days - legStart) * count;
  const seasonDays = withDays ? daysOfSeason(state?.days, count, firstRun, water, firstLeg, run) : undefined;
  return {
    kept,
    keptLastWater: kept === null ? null : keptLastWater,
    ...(seasonDays && kept !== null ? { keptDays: seasonDays.kept } : {}),
    zone: {
      name: season.name,
      cells,
      efficiency,
      curves,
      lastDay: days,
      referenceEvapotranspiration: seasonWeather.referenceEvapotranspiration[days - 1]!,
      depletion: run.finalDepletion,
      stress: Float64Array.from(run.stress.subarray(lastOffset, lastOffset + count)),
      applied: applied.slice(lastOffset, lastOffset + count),
      lastWater,
      outlook: outlookFromCurves(curves, days + 1),
      emergence,
      stages: crop.parameters.stages,
      weather: seasonWeather,
      gaugeRain: gaugeRainOfCells(records, count),
      ...(seasonDays ? { days: seasonDays.all } : {}),
    },
  };
}

/**
 * Every day from emergence through season day `days`: the kept state's spans before `firstRun`,
 * then the legs just run, each with its water; the spans through the first leg are the ones to
 * keep. Spans are never changed once made, so a kept state and an answer share them. A kept state
 * without its days cannot give them: the season series never goes on from one (its states are its own).
 */
function daysOfSeason(
  before: ZoneDays | undefined,
  count: number,
  firstRun: number,
  water: Float64Array,
  firstLeg: CellRun | null,
  lastLeg: CellRun,
): { all: ZoneDays; kept: ZoneDays } {
  if (firstRun > 1 && before === undefined) throw new Error('a kept state without its days cannot give the season');
  const span = (leg: CellRun): DaySpan => {
    const from = (leg.firstDay - firstRun) * count;
    return {
      firstDay: leg.firstDay,
      lastDay: leg.lastDay,
      depletion: leg.depletion,
      stress: leg.stress,
      applied: Float32Array.from(water.subarray(from, from + (leg.lastDay - leg.firstDay + 1) * count)),
    };
  };
  const kept = firstLeg ? [...(before ?? []), span(firstLeg)] : (before ?? []);
  return { all: [...kept, span(lastLeg)], kept };
}
