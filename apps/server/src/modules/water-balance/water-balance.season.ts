import {
  type GrowthStageKey,
  type WaterBalanceReason,
  type WaterBalanceSeason,
  type WaterBalanceSeasonArea,
  dottedOfIsoDate,
  isoOfDottedDate,
} from '@pivot/contracts';
import { growthStageOnDay } from '../crop-seasons';
import { type ExpectedDay, expectedDays } from './irrigation-advice';
import { dayNumber, isoOfDayNumber } from './water-balance.days';
import type { BalanceInputs } from './water-balance.inputs';
import { type DaySpan, type KeptState, keptStateBytes } from './water-balance.kept-state';
import { type Sector, type ZonePart, rainOfCells, round, summarise } from './water-balance.presenter';
import type { ZoneRun } from './water-balance.zones';

/**
 * The season series (docs/advice.md, "The season series"): the days the balance already steps,
 * summed up per zone and sector as the balance sums up the day asked for, and the coming days up
 * to the next irrigation as the advice steps them.
 */

/**
 * What the season series' kept states may take of the server's memory: each day's depletion, Ks
 * and water of each cell (4 bytes each) besides what any kept state holds. 100 MB are five
 * seasons of 180 days on a 520 m machine.
 */
export const SEASON_KEPT_BYTES_LIMIT = 100 * 1024 * 1024;

export function seasonStateBytes(state: KeptState): number {
  const spans = state.days ?? [];
  return spans.reduce((size, span) => size + 12 * span.depletion.length, keptStateBytes(state));
}

export function emptySeason(date: string, reason: WaterBalanceReason): WaterBalanceSeason {
  return {
    date: dottedOfIsoDate(date),
    reason,
    station: null,
    forecast: 'recent-et0',
    forecastFallback: null,
    zones: [],
    sectors: [],
  };
}

export function presentSeason(
  date: string,
  inputs: BalanceInputs,
  zones: readonly ZoneRun[],
  sectors: readonly Sector[],
): WaterBalanceSeason {
  return {
    date: dottedOfIsoDate(date),
    reason: null,
    station: inputs.stationId,
    forecast: inputs.forecastFallback === null ? 'forecast' : 'recent-et0',
    forecastFallback: inputs.forecastFallback,
    zones: zones.map((zone) => seriesOf(zone.name, [{ zone, indices: zone.cells.map((_, index) => index) }], date)),
    sectors: sectors.map(({ name, parts }) => seriesOf(name, parts, date)),
  };
}

/** A zone's part with its coming days stepped from the part's mean depletion on `date`. */
type SteppedPart = ZonePart & { coming: ExpectedDay[]; key: string };

/**
 * An area's days: through `date` the means of its cells' run days (on `date` itself the answer's,
 * the probes' correction included), then the coming days each part steps from its mean depletion,
 * up to the area's next irrigation or, with none due, the end of its last season.
 */
function seriesOf(name: string, parts: readonly ZonePart[], date: string): WaterBalanceSeasonArea {
  const today = dayNumber(date);
  const { nextIrrigation } = summarise(name, [...parts], date, null);
  const first = Math.min(...parts.map(({ zone }) => zone.emergence));
  const seasonsEnd = Math.max(...parts.map(({ zone }) => zone.emergence + zone.curves.lastSeasonDay - 1));
  const last = nextIrrigation === null ? seasonsEnd : dayNumber(isoOfDottedDate(nextIrrigation));
  const stepped: SteppedPart[] = parts.map((part) => {
    let depletion = 0;
    for (const index of part.indices) depletion += part.zone.depletion[index]!;
    const coming = expectedDays(depletion / part.indices.length, part.zone.outlook, last - today);
    return { ...part, coming, key: partKey(part.indices) };
  });
  const series: WaterBalanceSeasonArea = {
    name,
    firstDay: dottedOfIsoDate(isoOfDayNumber(first)),
    measuredDays: today - first + 1,
    nextIrrigation,
    depletion: [],
    taw: [],
    raw: [],
    rain: [],
    effectiveRain: [],
    applied: [],
    et0: [],
    etc: [],
    kc: [],
    ks: [],
    stage: [],
  };
  for (let day = first; day <= last; day += 1) {
    const sums = { depletion: 0, taw: 0, raw: 0, rain: 0, effectiveRain: 0, applied: 0, et0: 0, etc: 0, kc: 0, ks: 0 };
    let count = 0;
    let stage: GrowthStageKey | null | undefined;
    for (const { zone, indices, coming, key } of stepped) {
      const seasonDay = day - zone.emergence + 1;
      const ahead = day > today ? coming[day - today - 1] : undefined;
      if (seasonDay < 1 || (day > today && ahead === undefined)) continue;
      const cells = indices.length;
      if (day === today) {
        for (const index of indices) {
          sums.depletion += zone.depletion[index]!;
          sums.ks += zone.stress[index]!;
          sums.applied += zone.applied[index]!;
        }
      } else if (ahead) {
        sums.depletion += ahead.end * cells;
        sums.ks += ahead.stress * cells;
      } else {
        const span = zone.days!.find((candidate) => candidate.lastDay >= seasonDay)!;
        const part = partSums(span, indices, key, zone.cells.length);
        const at = seasonDay - span.firstDay;
        sums.depletion += part.depletion[at]!;
        sums.ks += part.stress[at]!;
        sums.applied += part.applied[at]!;
      }
      const at = seasonDay - 1;
      const { curves, weather } = zone;
      sums.taw += curves.totalAvailableWater[at]! * cells;
      sums.raw += curves.readilyAvailableWater[at]! * cells;
      sums.etc += curves.cropEvapotranspiration[at]! * cells;
      sums.kc += curves.cropCoefficient[at]! * cells;
      const rain = rainOfCells(zone, seasonDay, indices);
      sums.effectiveRain += rain.effective;
      sums.et0 += weather.referenceEvapotranspiration[at]! * cells;
      sums.rain += rain.rain;
      count += cells;
      const partStage = growthStageOnDay(zone.stages, seasonDay);
      const known = partStage === 'over' ? null : partStage;
      stage = stage === undefined || stage === known ? known : null;
    }
    // A sector's zones may end their seasons before its next irrigation: its days end with them.
    if (count === 0) break;
    const mean = (sum: number, decimals = 2) => round(sum / count, decimals);
    series.depletion.push(mean(sums.depletion));
    series.taw.push(mean(sums.taw));
    series.raw.push(mean(sums.raw));
    series.rain.push(mean(sums.rain));
    series.effectiveRain.push(mean(sums.effectiveRain));
    series.applied.push(mean(sums.applied));
    series.et0.push(mean(sums.et0));
    series.etc.push(mean(sums.etc));
    series.kc.push(mean(sums.kc, 3));
    series.ks.push(mean(sums.ks, 3));
    series.stage.push(stage ?? null);
  }
  return series;
}

/** A part's sums over its cells of each day of a span: its depletion, Ks and water. */
type PartSums = { depletion: Float64Array; stress: Float64Array; applied: Float64Array };

/**
 * Each span's sums per part, made once: a span never changes, so a later answer adds up only the
 * days run since (a 520 m machine's 180 days are 1.5 M cell-days to add up otherwise).
 */
const sumsOfSpans = new WeakMap<DaySpan, Map<string, PartSums>>();

/** Which cells a part holds, as a key: their count and two hashes of their places. */
function partKey(indices: readonly number[]): string {
  let first = 0x811c9dc5;
  let second = 0;
  for (const index of indices) {
    first = Math.imul(first ^ index, 0x01000193);
    second = (Math.imul(second, 31) + index) | 0;
  }
  return `${indices.length}:${first >>> 0}:${second >>> 0}`;
}

function partSums(span: DaySpan, indices: readonly number[], key: string, cells: number): PartSums {
  let parts = sumsOfSpans.get(span);
  if (!parts) {
    parts = new Map();
    sumsOfSpans.set(span, parts);
  }
  const known = parts.get(key);
  if (known) return known;
  const days = span.lastDay - span.firstDay + 1;
  const sums: PartSums = {
    depletion: new Float64Array(days),
    stress: new Float64Array(days),
    applied: new Float64Array(days),
  };
  for (let day = 0; day < days; day += 1) {
    const offset = day * cells;
    let depletion = 0;
    let stress = 0;
    let applied = 0;
    for (const index of indices) {
      depletion += span.depletion[offset + index]!;
      stress += span.stress[offset + index]!;
      applied += span.applied[offset + index]!;
    }
    sums.depletion[day] = depletion;
    sums.stress[day] = stress;
    sums.applied[day] = applied;
  }
  parts.set(key, sums);
  return sums;
}
