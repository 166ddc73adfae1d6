import {
  type ProbeDisagreement,
  type ProgramData,
  type WaterBalance,
  type WaterBalanceArea,
  type WaterBalanceProbe,
  type WaterBalanceReason,
  dottedOfIsoDate,
  isForbiddenZone,
} from '@pivot/contracts';
import { WATER_GRID_STEP_M } from '../watermap';
import { percentTimerPlan } from '../application-depth';
import { expectedDepletions, irrigationDoses, nextIrrigation } from './irrigation-advice';
import { dayNumber, isoOfDayNumber } from './water-balance.days';
import type { BalanceInputs } from './water-balance.inputs';
import type { ZoneRun } from './water-balance.zones';
import { effectiveRain } from './water-balance';

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** The answer for a day with no zones, and why. */
export function emptyBalance(date: string, reason: WaterBalanceReason): WaterBalance {
  return {
    date: dottedOfIsoDate(date),
    reason,
    station: null,
    missingWeatherDays: 0,
    lastRain: null,
    forecast: 'recent-et0',
    forecastFallback: null,
    applicationDepth: null,
    zones: [],
    sectors: [],
    step: WATER_GRID_STEP_M,
    cells: [],
    probes: [],
    probeDisagreements: [],
  };
}

/** The answer: the station's days, each zone's and sector's state and next irrigation, and every cell. */
export function presentBalance(
  date: string,
  inputs: BalanceInputs,
  zones: readonly ZoneRun[],
  sectors: readonly Sector[],
  probes: WaterBalanceProbe[],
  probeDisagreements: ProbeDisagreement[] = [],
): WaterBalance {
  const lastDay = dayNumber(date);
  const { depth } = inputs;
  const depthAtFullSpeed = depth?.depthAtFullSpeed ?? null;
  let missingWeatherDays = 0;
  for (let day = inputs.firstDay; day <= lastDay; day += 1) {
    if (!inputs.weatherOf.has(day)) missingWeatherDays += 1;
  }
  const lastRain = lastRainOf(zones, lastDay);
  return {
    date: dottedOfIsoDate(date),
    reason: null,
    station: inputs.stationId,
    missingWeatherDays,
    lastRain: lastRain === null ? null : dottedOfIsoDate(isoOfDayNumber(lastRain)),
    forecast: inputs.forecastFallback === null ? 'forecast' : 'recent-et0',
    forecastFallback: inputs.forecastFallback,
    applicationDepth:
      depthAtFullSpeed === null
        ? null
        : { depthAtFullSpeed: round(depthAtFullSpeed, 2), source: depth?.setting === null ? 'reports' : 'setting' },
    zones: zones.map((zone) =>
      summarise(zone.name, [{ zone, indices: zone.cells.map((_, index) => index) }], date, depthAtFullSpeed),
    ),
    sectors: sectors.map(({ name, parts }) => summarise(name, parts, date, depthAtFullSpeed)),
    step: WATER_GRID_STEP_M,
    cells: zones.flatMap((zone) =>
      zone.cells.map((cell, index): [number, number, number, number, number | null] => [
        cell.lat,
        cell.lng,
        round(zone.depletion[index]!, 1),
        round(zone.curves.totalAvailableWater[zone.lastDay - 1]!, 1),
        zone.lastWater[index]! < 0 ? null : lastDay - zone.lastWater[index]!,
      ]),
    ),
    probes,
    probeDisagreements,
  };
}

/**
 * The last day through `lastDay` (a day number) it rained on any zone's cell as the balance took
 * it: the station's rain, or the farm's gauge in its place (a zone's or a sector's). Null: none.
 */
function lastRainOf(zones: readonly ZoneRun[], lastDay: number): number | null {
  let last: number | null = null;
  for (const zone of zones) {
    for (let index = Math.min(zone.lastDay, lastDay - zone.emergence + 1) - 1; index >= 0; index -= 1) {
      if (zone.weather.rain[index]! > 0) {
        last = Math.max(last ?? index + zone.emergence, index + zone.emergence);
        break;
      }
    }
    for (const [day, cells] of zone.gaugeRain) {
      if (day > lastDay || (last !== null && day <= last)) continue;
      for (const mm of cells.values()) if (mm > 0) last = day;
    }
  }
  return last;
}

/**
 * The rain and the effective rain on a zone's cells on a season day (1 = emergence), summed: the
 * zone's (the station's, or the zone's gauge), a sector's gauge on the cells it read for.
 */
export function rainOfCells(
  zone: ZoneRun,
  seasonDay: number,
  indices: readonly number[],
): { rain: number; effective: number } {
  const at = seasonDay - 1;
  const zoneRain = zone.weather.rain[at]!;
  const zoneEffective = zone.curves.effectiveRain[at]!;
  const gauged = zone.gaugeRain.get(zone.emergence + at);
  if (!gauged) return { rain: zoneRain * indices.length, effective: zoneEffective * indices.length };
  const reference = zone.weather.referenceEvapotranspiration[at]!;
  let rain = 0;
  let effective = 0;
  for (const index of indices) {
    const mm = gauged.get(index);
    rain += mm ?? zoneRain;
    effective += mm === undefined ? zoneEffective : effectiveRain(mm, reference);
  }
  return { rain, effective };
}

/** Some of a zone's cells, by their index in it. */
export type ZonePart = { zone: ZoneRun; indices: number[] };

/** A sector of the active program, as the parts of the zones it covers. */
export type Sector = { name: string; parts: ZonePart[] };

/**
 * The sectors of the active program that water (forbidden zones left out), each as the parts of
 * the zones it covers, from each sector's cells of the grid (`sectorCells`, in the program's order).
 */
export function sectorsOf(
  program: ProgramData,
  sectorCells: readonly Int32Array[],
  zones: readonly ZoneRun[],
  gridSize: number,
): Sector[] {
  // Where each cell of the grid is in the zones: its zone and its place there (-1: in none).
  const zoneOf = new Int32Array(gridSize).fill(-1);
  const placeOf = new Int32Array(gridSize);
  zones.forEach((zone, zoneIndex) =>
    zone.cells.forEach((cell, place) => {
      zoneOf[cell.index] = zoneIndex;
      placeOf[cell.index] = place;
    }),
  );
  return program.features.flatMap((sector, sectorIndex) => {
    if (isForbiddenZone(sector)) return [];
    const indicesOf = zones.map((): number[] => []);
    for (const cell of sectorCells[sectorIndex]!) {
      const zoneIndex = zoneOf[cell]!;
      if (zoneIndex >= 0) indicesOf[zoneIndex]!.push(placeOf[cell]!);
    }
    const parts = zones
      .map((zone, zoneIndex) => ({ zone, indices: indicesOf[zoneIndex]!.sort((a, b) => a - b) }))
      .filter((part) => part.indices.length > 0);
    return parts.length > 0 ? [{ name: sector.properties.name, parts }] : [];
  });
}

/**
 * An area's state: means over its cells (least and most for the depletion); the next irrigation
 * of each zone's part from that part's mean depletion, the earliest of them answered with its doses.
 */
export function summarise(
  name: string,
  parts: ZonePart[],
  date: string,
  depthAtFullSpeed: number | null,
): WaterBalanceArea {
  let count = 0;
  const sums = { taw: 0, raw: 0, depletion: 0, ks: 0, etc: 0, et0: 0, rain: 0, applied: 0 };
  let depletionMin = Number.POSITIVE_INFINITY;
  let depletionMax = Number.NEGATIVE_INFINITY;
  let earliest: { daysAhead: number; netDose: number; efficiency: number; expected: number[] } | null = null;
  for (const { zone, indices } of parts) {
    const last = zone.lastDay - 1;
    let partDepletion = 0;
    for (const index of indices) {
      const depletion = zone.depletion[index]!;
      partDepletion += depletion;
      depletionMin = Math.min(depletionMin, depletion);
      depletionMax = Math.max(depletionMax, depletion);
      sums.ks += zone.stress[index]!;
      sums.applied += zone.applied[index]!;
    }
    count += indices.length;
    sums.depletion += partDepletion;
    sums.taw += zone.curves.totalAvailableWater[last]! * indices.length;
    sums.raw += zone.curves.readilyAvailableWater[last]! * indices.length;
    sums.etc += zone.curves.cropEvapotranspiration[last]! * indices.length;
    sums.et0 += zone.referenceEvapotranspiration * indices.length;
    sums.rain += rainOfCells(zone, zone.lastDay, indices).rain;
    const need = nextIrrigation(partDepletion / indices.length, zone.outlook);
    if (need && (earliest === null || need.daysAhead < earliest.daysAhead)) {
      const expected = expectedDepletions(partDepletion / indices.length, zone.outlook);
      earliest = { ...need, efficiency: zone.efficiency, expected };
    }
  }
  const mean = (sum: number) => round(sum / count, 2);
  const doses = earliest && irrigationDoses(earliest.netDose, earliest.efficiency, null);
  const timer =
    doses && depthAtFullSpeed !== null && doses.grossDose > 0
      ? percentTimerPlan(doses.grossDose, depthAtFullSpeed)
      : null;
  return {
    name,
    taw: mean(sums.taw),
    raw: mean(sums.raw),
    depletion: mean(sums.depletion),
    depletionMin: round(depletionMin, 2),
    depletionMax: round(depletionMax, 2),
    ks: round(sums.ks / count, 3),
    etc: mean(sums.etc),
    et0: mean(sums.et0),
    rain: mean(sums.rain),
    applied: mean(sums.applied),
    nextIrrigation:
      earliest === null ? null : dottedOfIsoDate(isoOfDayNumber(dayNumber(date) + 1 + earliest.daysAhead)),
    netDose: doses ? round(doses.netDose, 2) : null,
    restDose: doses ? round(doses.restDose, 2) : null,
    grossDose: doses ? round(doses.grossDose, 2) : null,
    percentTimer: timer === null ? null : round(timer.percentTimer, 1),
    passes: timer?.passes ?? null,
    expectedDepletion: earliest ? earliest.expected.map((value) => round(value, 2)) : [],
  };
}
