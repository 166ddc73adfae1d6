import { createHash } from 'node:crypto';
import type { RunningSlice, WatermapService } from '../watermap';
import type { StationDay } from '../weather';
import type { CropSeasonRow } from '../crop-seasons';
import { type ZoneRecords, recordsDigestValues } from './farm-records';
import { type ProbeReading, readingsInCells } from './probes';
import { dayNumber, dayOfYearOf, yearOf } from './water-balance.days';
import type { Claim, GridCell, WaterGrid } from './water-balance.inputs';
import type { KeptState, KeptStates } from './water-balance.kept-state';

/** A cell's running sums, a slice per year (none: never watered). */
export type CellSums = readonly RunningSlice[];

/** A zone about to run: its season and cells, where it starts, and the kept state it goes on from, if that still holds. */
export type ZonePlan = Claim & {
  emergence: number;
  /** The zone's probes' readings around emergence, which the season starts from. */
  probeStart: ProbeReading[];
  /** The farm's rain and water records on the zone (farm-records.ts). */
  records: ZoneRecords;
  /** The readings of the zone's probes, each probe's newest of each day: each day's correction. */
  probeDays: ProbeReading[];
  /** Digest of what the zone's kept state depends on besides the weather and the water. */
  inputs: string;
  /** The season's kept state, whether or not it holds for this answer. */
  kept: KeptState | undefined;
  /** The kept state the zone goes on from; undefined: the zone runs from its emergence. */
  state: KeptState | undefined;
};

/** The first and last years of water the balance reads: the earliest emergence's and the day asked for's. */
export type WaterYears = { firstYear: number; lastYear: number };

/**
 * The water the zones run on, and the machine's water revision it was read at: each cell's sums,
 * or undefined for a cell of a zone going on from its state that had no water after the state's
 * day (the state's `water` is all there is of it).
 */
export type ZonesWater = { revision: number; sumsOf: (plan: ZonePlan) => (CellSums | undefined)[] };

/** `sinceRevision` that reads every row. */
const EVERY_ROW = -1;

/**
 * Each claim as a zone to run, with the kept state it may go on from (docs/advice.md, "Kept
 * state"): one kept from the same inputs, for a day from emergence up to the one before
 * `lastDay`, in a year the water read reaches, over the same station's days.
 */
export function planZones(
  keptStates: KeptStates,
  claims: readonly Claim[],
  startReadings: readonly ProbeReading[][],
  context: {
    stationId: string;
    weatherOf: ReadonlyMap<number, StationDay>;
    years: WaterYears;
    lastDay: number;
    /** Each claim's records, in the claims' order. */
    zoneRecords: readonly ZoneRecords[];
    grid: WaterGrid;
    dailyProbeReadings: readonly ProbeReading[];
    endOfDayOf: (day: number) => number;
  },
): ZonePlan[] {
  const { stationId, weatherOf, years, lastDay, zoneRecords, endOfDayOf } = context;
  return claims.map((claim, index) => {
    const emergence = dayNumber(claim.season.emergence);
    const probeStart = startReadings[index]!;
    const records = zoneRecords[index]!;
    const probeDays = readingsInCells(context.dailyProbeReadings, claim.cells, context.grid);
    const inputs = inputsDigest(claim.season, claim.cells, stationId, years.firstYear, probeStart);
    const kept = keptStates.get(claim.season.id);
    const usable =
      kept !== undefined &&
      kept.inputs === inputs &&
      kept.validThrough >= emergence &&
      kept.validThrough < lastDay &&
      years.lastYear <= kept.lastYear &&
      kept.weather === weatherDigest(weatherOf, emergence, kept.validThrough, { records, probeDays, endOfDayOf });
    return { ...claim, emergence, probeStart, records, probeDays, inputs, kept, state: usable ? kept : undefined };
  });
}

/**
 * The zones' water, their kept states checked against it. While a state is held, only the rows
 * changed since the oldest one's revision are read, from the earliest kept day on: they show
 * which states still hold and bring those states' water up to date. A zone that runs from its
 * emergence (it had no state, or its state no longer holds) needs every row from the day before
 * the earliest such emergence: they are read then, and the states left are checked against them
 * too, as the answer's revision is theirs.
 */
export async function reconcileWater(
  watermap: Pick<WatermapService, 'changedWater'>,
  machineId: string,
  plans: ZonePlan[],
  years: WaterYears,
): Promise<ZonesWater> {
  let water: ZonesWater = { revision: 0, sumsOf: () => [] };
  const held = plans.flatMap((plan) => (plan.state ? [plan.state] : []));
  if (held.length > 0) {
    water = await readWater(watermap, machineId, plans, years, {
      sinceRevision: Math.min(...held.map((state) => state.revision)),
      from: Math.min(...held.map((state) => state.validThrough)),
    });
  }
  const fromEmergence = plans.filter((plan) => plan.state === undefined);
  if (fromEmergence.length > 0) {
    water = await readWater(watermap, machineId, plans, years, {
      sinceRevision: EVERY_ROW,
      from: Math.min(...fromEmergence.map((plan) => plan.emergence)) - 1,
    });
  }
  return water;
}

/**
 * Reads the machine's rows changed since a revision (every row for `EVERY_ROW`) from a day on,
 * drops the kept states they show no longer hold, and gives each zone's cells' sums: the rows
 * read, or, for a state that holds, its own sums with the changed years replaced.
 */
async function readWater(
  watermap: Pick<WatermapService, 'changedWater'>,
  machineId: string,
  plans: ZonePlan[],
  years: WaterYears,
  read: { sinceRevision: number; from: number },
): Promise<ZonesWater> {
  const { revision, rows } = await watermap.changedWater(machineId, {
    ...years,
    lowerYear: yearOf(read.from),
    lower: dayOfYearOf(read.from),
    sinceRevision: read.sinceRevision,
  });
  const everyRow = read.sinceRevision === EVERY_ROW;
  const rowsOf = groupByCell(rows);
  const sumsOfSeason = new Map<number, (CellSums | undefined)[]>();
  for (const plan of plans) {
    const cellRows = plan.cells.map((cell) => rowsOf.get(cellKey(cell)));
    const state = plan.state;
    const sums = cellRows.map((changed, index): CellSums | undefined => {
      if (everyRow || !state) return changed ?? [];
      const kept = state.sums[index];
      if (!changed) return kept;
      return mergeSlices(kept ?? flatSlices(state, index, changed[0]!), changed);
    });
    if (state && !stillHolds(state, sums, everyRow ? [] : cellRows)) plan.state = undefined;
    if (everyRow || plan.state) sumsOfSeason.set(plan.season.id, sums);
  }
  return { revision, sumsOf: (plan) => sumsOfSeason.get(plan.season.id)! };
}

/**
 * Whether a kept state still holds: no changed row is of a year before its day's (water added to
 * a day it holds), and every cell's water through its day is what it was kept with.
 */
function stillHolds(
  state: KeptState,
  sums: readonly (CellSums | undefined)[],
  changedRows: readonly (RunningSlice[] | undefined)[],
): boolean {
  const keptYear = yearOf(state.validThrough);
  const keptDay = dayOfYearOf(state.validThrough);
  if (changedRows.some((rows) => rows?.some((row) => row.year < keptYear))) return false;
  return sums.every((cell, index) => cell === undefined || sumThrough(cell, keptYear, keptDay) === state.water[index]);
}

/** The slices of a cell the state keeps no sums of: its water through the state's day, nothing after. */
function flatSlices(state: KeptState, index: number, cell: { x: number; y: number }): CellSums {
  const water = state.water[index]!;
  if (water === 0) return [];
  const offset = dayOfYearOf(state.validThrough);
  return [{ year: yearOf(state.validThrough), x: cell.x, y: cell.y, offset, sums: [water] }];
}

function cellKey(cell: { x: number; y: number }): string {
  return `${cell.x}:${cell.y}`;
}

/** A cell's water from 1 January through a day of that year, as the watermap stores it. */
export function sumThrough(sums: CellSums | undefined, year: number, day: number): number {
  const slice = sums?.find((candidate) => candidate.year === year);
  if (!slice || day < slice.offset) return 0;
  return slice.sums[Math.min(day - slice.offset, slice.sums.length - 1)]!;
}

function groupByCell(rows: RunningSlice[]): Map<string, RunningSlice[]> {
  const cells = new Map<string, RunningSlice[]>();
  for (const row of rows) {
    const key = cellKey(row);
    const cell = cells.get(key);
    if (cell) cell.push(row);
    else cells.set(key, [row]);
  }
  return cells;
}

/** A cell's slices with the changed years' replaced. */
function mergeSlices(kept: CellSums, changed: RunningSlice[]): CellSums {
  return [...kept.filter((slice) => !changed.some((row) => row.year === slice.year)), ...changed];
}

/**
 * What a state kept at `keepAt` holds of its zone's water: each cell's water through that day,
 * and its sums from that day on where it had water after it (most cells have none: they cost the
 * state no slices, docs/advice.md). `from` is the state the zone went on from, if any.
 */
export function keptWater(
  sums: readonly (CellSums | undefined)[],
  from: KeptState | undefined,
  keepAt: number,
): Pick<KeptState, 'water' | 'sums'> {
  const year = yearOf(keepAt);
  const day = dayOfYearOf(keepAt);
  const sameYear = from !== undefined && yearOf(from.validThrough) === year;
  return {
    water: Float64Array.from(sums, (cell, index) =>
      cell === undefined ? (sameYear ? from.water[index]! : 0) : sumThrough(cell, year, day),
    ),
    sums: sums.map((cell) => (cell === undefined ? undefined : trimSlices(cell, year, day))),
  };
}

/**
 * What a kept state needs of a cell's sums: its years from the kept day's on, that year's from
 * the day; undefined when there is no water after the day.
 */
function trimSlices(sums: CellSums, year: number, day: number): CellSums | undefined {
  const trimmed = sums.flatMap((slice) => {
    if (slice.year < year) return [];
    if (slice.year > year || slice.offset >= day) return [slice];
    const drop = Math.min(day - slice.offset, slice.sums.length - 1);
    return [{ ...slice, offset: slice.offset + drop, sums: slice.sums.slice(drop) }];
  });
  const only = trimmed[0];
  // A slice ends on its last day with water: one value on or before the day is the total through it.
  const flat =
    only === undefined || (trimmed.length === 1 && only.year === year && only.offset <= day && only.sums.length === 1);
  return flat ? undefined : trimmed;
}

/** The cells' water of each day from `first` through `last` (day numbers): `water[dayIndex * count + cell]`. */
export function waterOfDays(sums: readonly (CellSums | undefined)[], first: number, last: number): Float64Array {
  const count = sums.length;
  const days = Math.max(0, last - first + 1);
  const water = new Float64Array(days * count);
  for (let index = 0; index < days; index += 1) {
    const year = yearOf(first + index);
    const day = dayOfYearOf(first + index);
    for (let cell = 0; cell < count; cell += 1) {
      const cellSums = sums[cell];
      // No sums: no water after the state's day, the first day's eve.
      if (cellSums === undefined || cellSums.length === 0) continue;
      water[index * count + cell] =
        sumThrough(cellSums, year, day) - (day === 1 ? 0 : sumThrough(cellSums, year, day - 1));
    }
  }
  return water;
}

/** What a season's kept state depends on besides the weather and the water: its settings, cells, station and start. */
function inputsDigest(
  season: CropSeasonRow,
  cells: GridCell[],
  stationId: string,
  waterSinceYear: number,
  probeStart: readonly ProbeReading[],
): string {
  const hash = createHash('sha1');
  hash.update(
    JSON.stringify([
      season.id,
      season.crop,
      season.soil,
      season.emergence,
      season.depletionFraction,
      season.efficiency,
      season.polygon,
      stationId,
      waterSinceYear,
      // A reading around emergence that came (or changed) moves the season's start: the state no longer holds.
      probeStart.map((reading) => [reading.sensorId, reading.ts.getTime(), reading.moisture]),
    ]),
  );
  hash.update(Int32Array.from(cells.flatMap((cell) => [cell.x, cell.y])));
  return hash.digest('base64');
}

/**
 * The station's days from `first` through `last` (day numbers), as the balance takes them, with
 * the farm's records of those days on the zone and its probes' readings through them: a record
 * or a reading made, changed or removed for a kept day makes the season run again.
 */
export function weatherDigest(
  weatherOf: ReadonlyMap<number, StationDay>,
  first: number,
  last: number,
  zone: { records: ZoneRecords; probeDays: readonly ProbeReading[]; endOfDayOf: (day: number) => number },
): string {
  const values: (number | string | null)[] = [];
  for (let day = first; day <= last; day += 1) {
    const reading = weatherOf.get(day);
    if (reading === undefined) values.push(null);
    else values.push(reading.referenceEvapotranspiration, reading.rain, reading.wind, reading.minHumidity);
  }
  values.push(...recordsDigestValues(zone.records, first, last));
  const endOfLast = zone.endOfDayOf(last);
  for (const reading of zone.probeDays) {
    if (reading.ts.getTime() < endOfLast) values.push(reading.sensorId, reading.ts.getTime(), reading.moisture);
  }
  return createHash('sha1').update(JSON.stringify(values)).digest('base64');
}
