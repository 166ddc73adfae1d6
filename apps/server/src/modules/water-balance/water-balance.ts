/**
 * The daily water balance of the root zone, FAO-56 (1998) chapter 8 (Eq. 85, 86, 88), for one
 * cell or for every cell of a machine's grid at once.
 *
 * Rain and irrigation arrive early in the day, as in FAO-56 Example 38: the day's water first
 * refills the root zone (what exceeds field capacity percolates below it at once), then the crop
 * takes Ks · ETc from what is left:
 *
 *   Dr,start = max(Dr,i−1 − P_eff − I_net, 0)     DP = max(P_eff + I_net − Dr,i−1, 0)
 *   Dr,i     = Dr,start + Ks(Dr,start) · Kc · ET0, held to TAW (Eq. 86)
 *
 * Runoff and capillary rise are taken as zero (a sprinkled field with the water table more than
 * 1 m below the roots). As the roots deepen, the soil they reach is taken at field capacity
 * (Example 38, note 5), so a growing root zone adds TAW without adding depletion.
 */
import {
  STANDARD_MIN_HUMIDITY,
  STANDARD_WIND,
  type SeasonCrop,
  type SoilWater,
  climateAdjustedCoefficient,
  climateAdjustedEndCoefficient,
  cropCoefficientOnDay,
  depletionFractionForEvapotranspiration,
  readilyAvailableWater,
  rootDepthOnDay,
  seasonLength,
  totalAvailableWater,
} from '../crop-seasons';

export type NumberSeries = ArrayLike<number>;

/**
 * The station's days, element 0 being day 1 of the season (emergence). Wind (m/s at 2 m) and
 * minimum relative humidity (%) may be NaN where the station did not report them; a stage with
 * none is taken at Table 12's standard climate.
 */
export type SeasonWeather = {
  referenceEvapotranspiration: NumberSeries;
  rain: NumberSeries;
  wind: NumberSeries;
  minHumidity: NumberSeries;
};

/** FAO-56 chapter 8: "Daily precipitation in amounts less than about 0.2 ETo is normally entirely evaporated". */
export const IGNORED_RAIN_SHARE_OF_REFERENCE = 0.2;

/** The rain that enters the balance, mm: none when the day's rain is under 0.2 ET0, else all of it. */
export function effectiveRain(rain: number, referenceEvapotranspiration: number): number {
  return rain < IGNORED_RAIN_SHARE_OF_REFERENCE * referenceEvapotranspiration ? 0 : rain;
}

/** What every cell of a crop zone shares on each day of the season; element 0 is day 1. */
export type SeasonCurves = {
  days: number;
  /** The season's last day (harvest): advice looks no further. */
  lastSeasonDay: number;
  cropCoefficient: Float64Array;
  /** Kc · ET0, mm/day: the crop's evapotranspiration without water stress. */
  cropEvapotranspiration: Float64Array;
  effectiveRain: Float64Array;
  rootDepth: Float64Array;
  depletionFraction: Float64Array;
  totalAvailableWater: Float64Array;
  readilyAvailableWater: Float64Array;
};

/** Running sums of the values present (not NaN) and of their count, so that any window's mean costs O(1). */
function presentSums(series: NumberSeries, days: number): { sums: Float64Array; counts: Float64Array } {
  const sums = new Float64Array(days + 1);
  const counts = new Float64Array(days + 1);
  for (let index = 0; index < days; index += 1) {
    const value = index < series.length ? series[index]! : Number.NaN;
    const present = Number.isFinite(value);
    sums[index + 1] = sums[index]! + (present ? value : 0);
    counts[index + 1] = counts[index]! + (present ? 1 : 0);
  }
  return { sums, counts };
}

function meanOfDays(
  running: { sums: Float64Array; counts: Float64Array },
  first: number,
  last: number,
  fallback: number,
) {
  const count = running.counts[last]! - running.counts[first - 1]!;
  return count > 0 ? (running.sums[last]! - running.sums[first - 1]!) / count : fallback;
}

/**
 * The days whose weather adjusts a stage's Kc on a given day: the stage's days so far, never a
 * later one, so that a day's numbers do not change when later days arrive. Before the stage has
 * begun (Kc mid is already the development stage's target), the season's days so far stand in.
 */
function climateWindow(stageFirst: number, stageLast: number, day: number): [number, number] {
  const last = Math.min(day, stageLast);
  return day >= stageFirst && last >= stageFirst ? [stageFirst, last] : [1, day];
}

/** The shared daily series of a crop zone: Kc (Eq. 66, 62, 65), ETc, effective rain, Zr, p, TAW, RAW. */
export function seasonCurves(crop: SeasonCrop, soil: SoilWater, weather: SeasonWeather): SeasonCurves {
  const { kc, stages, rootDepth } = crop.parameters;
  const days = weather.referenceEvapotranspiration.length;
  const wind = presentSums(weather.wind, days);
  const humidity = presentSums(weather.minHumidity, days);
  const midFirst = stages.initial + stages.development + 1;
  const midLast = midFirst + stages.midSeason - 1;
  const lateLast = seasonLength(stages);
  const curves: SeasonCurves = {
    days,
    lastSeasonDay: lateLast,
    cropCoefficient: new Float64Array(days),
    cropEvapotranspiration: new Float64Array(days),
    effectiveRain: new Float64Array(days),
    rootDepth: new Float64Array(days),
    depletionFraction: new Float64Array(days),
    totalAvailableWater: new Float64Array(days),
    readilyAvailableWater: new Float64Array(days),
  };
  for (let index = 0; index < days; index += 1) {
    const day = index + 1;
    let coefficients = kc;
    if (crop.height !== null) {
      const [midStart, midEnd] = climateWindow(midFirst, midLast, day);
      const [lateStart, lateEnd] = climateWindow(midLast + 1, lateLast, day);
      coefficients = {
        initial: kc.initial,
        midSeason: climateAdjustedCoefficient(
          kc.midSeason,
          meanOfDays(wind, midStart, midEnd, STANDARD_WIND),
          meanOfDays(humidity, midStart, midEnd, STANDARD_MIN_HUMIDITY),
          crop.height,
        ),
        end: climateAdjustedEndCoefficient(
          kc.end,
          meanOfDays(wind, lateStart, lateEnd, STANDARD_WIND),
          meanOfDays(humidity, lateStart, lateEnd, STANDARD_MIN_HUMIDITY),
          crop.height,
        ),
      };
    }
    const referenceEvapotranspiration = weather.referenceEvapotranspiration[index]!;
    const coefficient = cropCoefficientOnDay(coefficients, stages, day);
    const cropEvapotranspiration = coefficient * referenceEvapotranspiration;
    const depth = rootDepthOnDay(rootDepth, stages, day);
    const fraction = crop.adjustDepletionFraction
      ? depletionFractionForEvapotranspiration(crop.parameters.depletionFraction, cropEvapotranspiration)
      : crop.parameters.depletionFraction;
    const total = totalAvailableWater(soil, depth);
    curves.cropCoefficient[index] = coefficient;
    curves.cropEvapotranspiration[index] = cropEvapotranspiration;
    curves.effectiveRain[index] = effectiveRain(
      index < weather.rain.length ? weather.rain[index]! : 0,
      referenceEvapotranspiration,
    );
    curves.rootDepth[index] = depth;
    curves.depletionFraction[index] = fraction;
    curves.totalAvailableWater[index] = total;
    curves.readilyAvailableWater[index] = readilyAvailableWater(fraction, total);
  }
  return curves;
}

/**
 * The water the watermap measured on each cell, mm, day by day: `applied[dayIndex * count + cell]`;
 * `netRain`, laid out alike, is rain that reaches some cells beside the zone's (a sector's rain
 * gauge: farm-records.ts), mm as it enters the root zone, less than nothing where the gauge caught
 * less than the zone's rain.
 */
export type CellsWater = { count: number; applied: NumberSeries; netRain?: NumberSeries | null };

export type CellRunOptions = {
  /** Share of the applied water that reaches the root zone (0 … 1]: I_net = applied × efficiency. */
  efficiency: number;
  /** The season day the run starts on (1 = emergence); `applied` starts on it too. */
  firstDay?: number;
  /** The last season day run; the curves' last day by default. */
  lastDay?: number;
  /** Each cell's depletion at the start of the first day, mm; field capacity (0) by default. */
  startDepletion?: NumberSeries;
  /**
   * Moves the cells' depletions at the end of a season day (the probes' correction); true when it
   * moved them. The day's end and every later day are then the corrected ones.
   */
  correctAtEndOf?: (seasonDay: number, depletion: Float64Array) => boolean;
};

/**
 * Every cell on every day run, day by day: `depletion[dayIndex * count + cell]`, dayIndex counted
 * from `firstDay`. Stored at float32 precision (about seven digits), far finer than any input.
 */
export type CellRun = {
  firstDay: number;
  lastDay: number;
  count: number;
  /** Root zone depletion at the end of the day, mm. */
  depletion: Float32Array;
  /** Ks of the day (Eq. 84), from the depletion after the day's early water. */
  stress: Float32Array;
  /** Ks · ETc, mm: what the crop took. */
  evapotranspiration: Float32Array;
  /** Water beyond field capacity, lost below the roots, mm (Eq. 88 with the water early in the day). */
  deepPercolation: Float32Array;
  /** Each cell's depletion at the end of the last day, to go on from. */
  finalDepletion: Float64Array;
};

/**
 * Runs the balance for many cells that share a crop, a soil and the weather (one crop zone), one
 * day after another. Typed arrays throughout and nothing allocated per cell or day: a 520 m
 * machine's season (about 8,500 cells × 180 days) takes milliseconds.
 */
export function runCells(curves: SeasonCurves, water: CellsWater, options: CellRunOptions): CellRun {
  const { count, applied } = water;
  const netRain = water.netRain ?? null;
  const firstDay = options.firstDay ?? 1;
  const lastDay = options.lastDay ?? curves.days;
  if (firstDay < 1 || lastDay > curves.days)
    throw new RangeError(`days ${firstDay}–${lastDay} outside the curves' 1–${curves.days}`);
  const dayCount = Math.max(0, lastDay - firstDay + 1);
  if (applied.length < dayCount * count)
    throw new RangeError(`applied water holds ${applied.length} values, not ${dayCount} days × ${count} cells`);
  const efficiency = options.efficiency;
  const depletion = new Float64Array(count);
  const firstTotal = curves.totalAvailableWater[firstDay - 1] ?? 0;
  for (let cell = 0; cell < count; cell += 1) {
    const start = options.startDepletion?.[cell] ?? 0;
    depletion[cell] = Math.min(firstTotal, Math.max(0, start));
  }
  const run: CellRun = {
    firstDay,
    lastDay,
    count,
    depletion: new Float32Array(dayCount * count),
    stress: new Float32Array(dayCount * count),
    evapotranspiration: new Float32Array(dayCount * count),
    deepPercolation: new Float32Array(dayCount * count),
    finalDepletion: depletion,
  };
  for (let dayIndex = 0; dayIndex < dayCount; dayIndex += 1) {
    const curveIndex = firstDay - 1 + dayIndex;
    const rain = curves.effectiveRain[curveIndex]!;
    const demand = curves.cropEvapotranspiration[curveIndex]!;
    const total = curves.totalAvailableWater[curveIndex]!;
    const readily = curves.readilyAvailableWater[curveIndex]!;
    const offset = dayIndex * count;
    for (let cell = 0; cell < count; cell += 1) {
      const index = offset + cell;
      // Early in the day: rain and irrigation refill the root zone; the excess drains below it.
      let start = depletion[cell]! - rain - applied[index]! * efficiency - (netRain === null ? 0 : netRain[index]!);
      let percolation = 0;
      if (start < 0) {
        percolation = -start;
        start = 0;
      }
      // Through the day: the crop takes Ks · ETc (Eq. 84, 81), and never more than is left (Eq. 86).
      let stress = 1;
      if (start > readily) stress = total > readily ? Math.max(0, (total - start) / (total - readily)) : 0;
      const taken = Math.min(stress * demand, Math.max(0, total - start));
      const end = start + taken;
      depletion[cell] = end;
      run.depletion[index] = end;
      run.stress[index] = stress;
      run.evapotranspiration[index] = taken;
      run.deepPercolation[index] = percolation;
    }
    if (options.correctAtEndOf?.(curveIndex + 1, depletion)) {
      for (let cell = 0; cell < count; cell += 1) run.depletion[offset + cell] = depletion[cell]!;
    }
  }
  return run;
}

/** One day of one cell's season, as FAO-56 Example 38 tabulates it. */
export type BalanceDay = {
  day: number;
  referenceEvapotranspiration: number;
  cropCoefficient: number;
  cropEvapotranspiration: number;
  rootDepth: number;
  depletionFraction: number;
  totalAvailableWater: number;
  readilyAvailableWater: number;
  effectiveRain: number;
  /** The applied water times the efficiency, mm. */
  netIrrigation: number;
  stress: number;
  evapotranspiration: number;
  deepPercolation: number;
  /** Depletion at the end of the day, mm. */
  depletion: number;
};

export type CellSeason = {
  crop: SeasonCrop;
  soil: SoilWater;
  weather: SeasonWeather;
  /** Water measured on the cell each day, mm; element 0 is day 1. */
  applied: NumberSeries;
  efficiency: number;
  /** Depletion at the start of day 1, mm: field capacity (0) unless a probe says otherwise. */
  startDepletion?: number;
};

/** One cell's season, day by day: the readable form of `runCells`, which it runs. */
export function runCellSeason(season: CellSeason): BalanceDay[] {
  const curves = seasonCurves(season.crop, season.soil, season.weather);
  const applied = Float64Array.from({ length: curves.days }, (_, index) => season.applied[index] ?? 0);
  const run = runCells(
    curves,
    { count: 1, applied },
    {
      efficiency: season.efficiency,
      startDepletion: [season.startDepletion ?? 0],
    },
  );
  return Array.from({ length: curves.days }, (_, index) => ({
    day: index + 1,
    referenceEvapotranspiration: season.weather.referenceEvapotranspiration[index]!,
    cropCoefficient: curves.cropCoefficient[index]!,
    cropEvapotranspiration: curves.cropEvapotranspiration[index]!,
    rootDepth: curves.rootDepth[index]!,
    depletionFraction: curves.depletionFraction[index]!,
    totalAvailableWater: curves.totalAvailableWater[index]!,
    readilyAvailableWater: curves.readilyAvailableWater[index]!,
    effectiveRain: curves.effectiveRain[index]!,
    netIrrigation: applied[index]! * season.efficiency,
    stress: run.stress[index]!,
    evapotranspiration: run.evapotranspiration[index]!,
    deepPercolation: run.deepPercolation[index]!,
    depletion: run.depletion[index]!,
  }));
}
