/**
 * The farm's own records in the water balance (docs/advice.md, "The farm's own records"): pure
 * functions that turn a machine's rain-gauge readings and water from other sources into what
 * each crop zone's run takes, day by day and cell by cell.
 *
 * - A rain gauge's reading **replaces** the station's rain of its day where it was read: on the
 *   whole zone (the whole machine's gauge, or the zone's own) the zone's rain of that day is the
 *   gauge's, so the 0.2 ET0 rule applies to it as to the station's; on a sector that holds only
 *   some of the zone's cells, those cells get the difference of the two effective rains
 *   (`effectiveRain(gauge) − effectiveRain(station)`, which may be less than nothing) beside the
 *   zone's rain.
 * - Water from another source is **added** to the day's water of the cells it fell on, before the
 *   efficiency, as the watermap's is.
 *
 * Where several gauge readings cover a cell on one day, the narrowest area wins (a sector's over
 * its zone's over the whole machine's), and among equals the one recorded last.
 */
import type { FarmRecordKind, RecordArea } from '@pivot/contracts';
import { effectiveRain } from './water-balance';

/** A rain or water record as the balance reads it: `day` a day number (days since 1970-01-01). */
export type BalanceRecord = {
  id: number;
  kind: Exclude<FarmRecordKind, 'probe'>;
  day: number;
  area: RecordArea;
  mm: number;
};

/** One record on some of a zone's cells (their places in the zone); `cells` null: on all of them. */
export type ZoneRecordPart = {
  id: number;
  kind: BalanceRecord['kind'];
  day: number;
  mm: number;
  cells: Int32Array | null;
};

/** A zone's records: the gauge readings on the whole zone (day number → mm) and those on some cells, and the water. */
export type ZoneRecords = { zoneRain: Map<number, number>; parts: ZoneRecordPart[] };

export const NO_RECORDS: ZoneRecords = { zoneRain: new Map(), parts: [] };

const NARROWNESS: Record<RecordArea['kind'], number> = { machine: 0, zone: 1, sector: 2 };

/**
 * The records that fall on one zone: `sectorCells` gives a sector's cells of the grid by name
 * (1 at a cell's grid index), `zoneCells` the zone's cells' grid indices. A record whose area
 * does not reach the zone (another zone, a sector elsewhere, a sector no longer loaded) is left out.
 */
export function recordsOfZone(
  records: readonly BalanceRecord[],
  zone: { name: string; gridIndices: readonly number[] },
  sectorCells: (name: string) => Uint8Array | undefined,
): ZoneRecords {
  const ordered = [...records].sort((a, b) => NARROWNESS[a.area.kind] - NARROWNESS[b.area.kind] || a.id - b.id);
  const result: ZoneRecords = { zoneRain: new Map(), parts: [] };
  for (const record of ordered) {
    const cells = cellsOfArea(record.area, zone, sectorCells);
    if (cells === undefined) continue;
    if (record.kind === 'rain_gauge' && cells === null) {
      result.zoneRain.set(record.day, record.mm);
      continue;
    }
    result.parts.push({ id: record.id, kind: record.kind, day: record.day, mm: record.mm, cells });
  }
  return result;
}

/** The zone's cells an area holds (their places in the zone): null for all, undefined for none. */
function cellsOfArea(
  area: RecordArea,
  zone: { name: string; gridIndices: readonly number[] },
  sectorCells: (name: string) => Uint8Array | undefined,
): Int32Array | null | undefined {
  if (area.kind === 'machine') return null;
  if (area.kind === 'zone') return area.name === zone.name ? null : undefined;
  const within = sectorCells(area.name);
  if (!within) return undefined;
  const places: number[] = [];
  zone.gridIndices.forEach((gridIndex, place) => {
    if (within[gridIndex] === 1) places.push(place);
  });
  if (places.length === 0) return undefined;
  return places.length === zone.gridIndices.length ? null : Int32Array.from(places);
}

/** Replaces the station's rain of the days the zone's gauge readings cover; `rain[0]` is `emergence`'s. */
export function replaceZoneRain(rain: Float64Array, records: ZoneRecords, emergence: number): void {
  for (const [day, mm] of records.zoneRain) {
    const index = day - emergence;
    if (index >= 0 && index < rain.length) rain[index] = mm;
  }
}

/**
 * Enters the records on cells into the days run, `first` through `last` (day numbers): water
 * from other sources added to `water` (`water[dayIndex * count + cell]`, before the efficiency);
 * a sector's gauge readings as each cell's net rain beside the zone's, which comes back (null
 * when there is none). `rainOf` and `referenceOf` give the zone's rain (the gauge's where it
 * replaced the station's) and ET0 of a day.
 */
export function applyCellRecords(
  records: ZoneRecords,
  water: Float64Array,
  run: { first: number; last: number; count: number },
  rainOf: (day: number) => number,
  referenceOf: (day: number) => number,
): Float64Array | null {
  const { first, last, count } = run;
  let netRain: Float64Array | null = null;
  for (const part of records.parts) {
    if (part.kind !== 'irrigation' || part.day < first || part.day > last) continue;
    const offset = (part.day - first) * count;
    const cells = part.cells ?? Int32Array.from({ length: count }, (_, cell) => cell);
    for (const cell of cells) water[offset + cell]! += part.mm;
  }
  for (const [day, byCell] of gaugeRainOfCells(records, count)) {
    if (day < first || day > last) continue;
    netRain ??= new Float64Array(water.length);
    const reference = referenceOf(day);
    const zoneRain = effectiveRain(rainOf(day), reference);
    const offset = (day - first) * count;
    for (const [cell, mm] of byCell) netRain[offset + cell] = effectiveRain(mm, reference) - zoneRain;
  }
  return netRain;
}

/** What of a zone's records a kept state through `last` depends on: those of days up to it. */
export function recordsDigestValues(records: ZoneRecords, first: number, last: number): (number | string)[] {
  const values: (number | string)[] = [];
  for (const [day, mm] of [...records.zoneRain].sort((a, b) => a[0] - b[0])) {
    if (day >= first && day <= last) values.push('r', day, mm);
  }
  for (const part of records.parts) {
    if (part.day < first || part.day > last) continue;
    values.push(part.kind, part.day, part.mm, part.cells === null ? 'all' : Array.from(part.cells).join(','));
  }
  return values;
}

/**
 * The rain the gauges of some of a zone's cells read (a sector's), day number → cell's place in
 * the zone → mm: the narrowest reading of a cell and day wins (the parts come narrowest last).
 */
export function gaugeRainOfCells(records: ZoneRecords, count: number): Map<number, Map<number, number>> {
  const rainSet = new Map<number, Map<number, number>>();
  for (const part of records.parts) {
    if (part.kind !== 'rain_gauge') continue;
    const cells = part.cells ?? Int32Array.from({ length: count }, (_, cell) => cell);
    const byCell = rainSet.get(part.day) ?? new Map<number, number>();
    for (const cell of cells) byCell.set(cell, part.mm);
    rainSet.set(part.day, byCell);
  }
  return rainSet;
}
