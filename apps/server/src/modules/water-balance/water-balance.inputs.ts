import { type ForecastFallback, type GeoJson, type ProgramData, isForbiddenZone } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { addDays, localMidnight } from '../../time/local-day';
import { type SprinklerRow, areaMapPolygons } from '../sprinklers';
import { WATER_GRID_STEP_M, cellCentre } from '../watermap';
import type { StationDay, WeatherService } from '../weather';
import type { ApplicationDepthService } from '../application-depth';
import type { CropSeasonRow } from '../crop-seasons';
import { type FarmRecordRow, farmRecordsOfDays } from '../farm-records';
import { type BalanceRecord, type ZoneRecords, recordsOfZone } from './farm-records';
import type { ForecastClient, ForecastDay } from './forecast';
import {
  PROBE_LOOKBACK_MS,
  PROBE_MAX_AGE_MS,
  type ProbeReading,
  SEASON_START_WINDOW_MS,
  readingsInCells,
} from './probes';
import type { MachineCovers, WaterBalanceCovers } from './water-balance.covers';
import { dayNumber, isoOfDayNumber } from './water-balance.days';
import { activeProgramOf } from '../telemetry';

/** Where the balance's inputs come from, besides the machine's water. */
export type BalanceSources = {
  db: Database;
  weather: WeatherService;
  /** The farmers' time zone: its calendar days are the balance's days. */
  timeZone: string;
  /** The coming days' ET0 and rain (`FORECAST_URL`); without it, or when it fails, the recent ET0. */
  forecast?: Pick<ForecastClient, 'daily'>;
  /** The machine's depth at 100 %, for the percent timer; without it no timer is given. */
  applicationDepth?: Pick<ApplicationDepthService, 'of'>;
};

/** A cell of the machine's grid: its index east and north of the centre, its centre's position, and its place in the grid's list. */
export type GridCell = { x: number; y: number; lat: number; lng: number; index: number };

/** The grid the water is counted on: the machine's centre and the cells' size, m. */
export type WaterGrid = { centre: { lat: number; lng: number }; step: number };

/** A season and the cells of the grid it holds. */
export type Claim = { season: CropSeasonRow; cells: GridCell[] };

/** What a day's balance of a machine reads besides the water: the station's days, the program, the probes, the forecast. */
export type BalanceInputs = {
  grid: WaterGrid;
  /** The earliest emergence of the seasons running, a day number: the first day read. */
  firstDay: number;
  /** The end of the day asked for, ms since the epoch. */
  endOfDay: number;
  stationId: string;
  weatherOf: ReadonlyMap<number, StationDay>;
  program: { programData: ProgramData; version: string } | null;
  depth: Awaited<ReturnType<ApplicationDepthService['of']>> | undefined;
  /** The probes' newest readings at or before the end of the day (docs/advice.md, "Probes"). */
  probeReadings: ProbeReading[];
  /**
   * Each probe's newest reading of every day from `firstDay` through the day asked for (the
   * farm's reading of a day in place of its probe's own): what each past day is corrected by.
   */
  dailyProbeReadings: ProbeReading[];
  /** The end of a day (a day number) in the farmers' time zone, ms since the epoch. */
  endOfDayOf: (day: number) => number;
  /** The forecast's days from the day after the one asked for on, without a gap; the recent ET0 after them. */
  coming: ForecastDay[];
  /** Why there are no forecast days; null when there are. */
  forecastFallback: ForecastFallback | null;
  /** The farm's rain-gauge and other-water records from `firstDay` through the day asked for. */
  records: BalanceRecord[];
};

/**
 * The station's days from the earliest emergence through `date`, the active program, the depth
 * at 100 %, the probes' readings and the forecast; null when no station reports near the machine.
 */
export async function gatherInputs(
  sources: BalanceSources,
  sprinkler: SprinklerRow,
  seasons: readonly CropSeasonRow[],
  date: string,
): Promise<BalanceInputs | null> {
  const { db, weather, timeZone } = sources;
  const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
  const firstDay = Math.min(...seasons.map((season) => dayNumber(season.emergence)));
  const endOfDayOf = (day: number) => localMidnight(timeZone, isoOfDayNumber(day + 1)).getTime();
  const endOfDay = endOfDayOf(dayNumber(date));
  const [stationDays, program, depth, probeReadings, dailyProbeReadings, records] = await Promise.all([
    weather.dailyWeatherNear(db, centre, isoOfDayNumber(firstDay), date),
    activeProgramOf(db, sprinkler.internalId),
    sources.applicationDepth?.of(sprinkler),
    weather.probeReadings(
      db,
      centre,
      sprinkler.armLength,
      new Date(endOfDay - PROBE_LOOKBACK_MS),
      new Date(endOfDay - 1),
    ),
    weather.dailyProbeReadings(db, centre, sprinkler.armLength, {
      from: new Date(endOfDayOf(firstDay) - PROBE_MAX_AGE_MS),
      to: new Date(endOfDay - 1),
      timeZone,
    }),
    farmRecordsOfDays(db, sprinkler.id, isoOfDayNumber(firstDay), date),
  ]);
  if (stationDays.stationId === null) return null;
  const forecast = await comingDays(sources.forecast, stationDays.position, dayNumber(date));
  return {
    grid: { centre, step: WATER_GRID_STEP_M },
    firstDay,
    endOfDay,
    stationId: stationDays.stationId,
    weatherOf: new Map(stationDays.days.map((day) => [dayNumber(day.date), day])),
    program,
    depth,
    probeReadings: withRecordedProbes(probeReadings, records, date, endOfDay),
    dailyProbeReadings: withRecordedDays(dailyProbeReadings, records, endOfDayOf),
    endOfDayOf,
    coming: forecast.days,
    forecastFallback: forecast.fallback,
    records: records.flatMap((record): BalanceRecord[] =>
      record.kind === 'probe' || record.area === null || record.mm === null
        ? []
        : [{ id: record.id, kind: record.kind, day: dayNumber(record.day), area: record.area, mm: record.mm }],
    ),
  };
}

/** The farm's typed-in probe readings, each taken as read at its day's last moment, at the probe's position then. */
function recordedReadings(
  records: readonly FarmRecordRow[],
  endOfDayOf: (day: number) => number,
): (ProbeReading & { day: number })[] {
  return records.flatMap((record) => {
    if (record.kind !== 'probe' || record.probe === null || record.moisture === null) return [];
    if (record.probeLat === null || record.probeLng === null) return [];
    const day = dayNumber(record.day);
    return [
      {
        sensorId: record.probe,
        ts: new Date(endOfDayOf(day) - 1),
        lat: record.probeLat,
        lng: record.probeLng,
        moisture: record.moisture,
        recorded: true as const,
        day,
      },
    ];
  });
}

/** The probes' readings with the farm's readings of the day asked for in place of their probes' own. */
function withRecordedProbes(
  readings: ProbeReading[],
  records: readonly FarmRecordRow[],
  date: string,
  endOfDay: number,
): ProbeReading[] {
  const recorded = new Map<string, ProbeReading>();
  for (const { day, ...reading } of recordedReadings(records, () => endOfDay)) {
    if (day === dayNumber(date)) recorded.set(reading.sensorId, reading);
  }
  if (recorded.size === 0) return readings;
  return [...readings.filter((reading) => !recorded.has(reading.sensorId)), ...recorded.values()];
}

/** Each probe's reading of each day, the farm's reading of a day in place of its probe's own of that day. */
function withRecordedDays(
  readings: ProbeReading[],
  records: readonly FarmRecordRow[],
  endOfDayOf: (day: number) => number,
): ProbeReading[] {
  const recorded = recordedReadings(records, endOfDayOf);
  if (recorded.length === 0) return readings;
  // A reading of a recorded day: read after the day before ended and no later than the record.
  const isReplaced = (reading: ProbeReading) =>
    recorded.some(
      (entry) =>
        entry.sensorId === reading.sensorId &&
        reading.ts.getTime() <= entry.ts.getTime() &&
        reading.ts.getTime() >= endOfDayOf(entry.day - 1),
    );
  return [
    ...readings.filter((reading) => !isReplaced(reading)),
    ...recorded.map(({ day: _day, ...reading }) => reading),
  ];
}

/**
 * Each claim's records (farm-records.ts): a sector's are placed by the loaded program's sectors
 * of that name (`sectorCells`, in the program's order; forbidden zones are not areas).
 */
export function zoneRecordsOf(
  records: readonly BalanceRecord[],
  claims: readonly Claim[],
  program: ProgramData | null,
  sectorCells: readonly Int32Array[] | null,
  gridSize: number,
): ZoneRecords[] {
  const masks = new Map<string, Uint8Array>();
  const sectorMask = (name: string): Uint8Array | undefined => {
    if (!program || !sectorCells) return undefined;
    if (!masks.has(name)) {
      const mask = new Uint8Array(gridSize);
      program.features.forEach((sector, index) => {
        if (sector.properties.name !== name || isForbiddenZone(sector)) return;
        for (const cell of sectorCells[index]!) mask[cell] = 1;
      });
      masks.set(name, mask);
    }
    return masks.get(name);
  };
  return claims.map((claim) =>
    recordsOfZone(records, { name: claim.season.name, gridIndices: claim.cells.map((cell) => cell.index) }, sectorMask),
  );
}

/** The forecast's days at the station from the day after `lastDay` on, up to the first gap; or why there are none. */
async function comingDays(
  forecast: BalanceSources['forecast'],
  position: { lat: number; lng: number } | undefined,
  lastDay: number,
): Promise<{ days: ForecastDay[]; fallback: ForecastFallback | null }> {
  if (!forecast || !position) return { days: [], fallback: 'off' };
  const answered = await forecast.daily(position);
  if (answered === null || answered.length === 0) return { days: [], fallback: 'failed' };
  const coming: ForecastDay[] = [];
  for (const day of answered) {
    const number = dayNumber(day.date);
    if (number === lastDay + 1 + coming.length) coming.push(day);
    else if (number > lastDay + 1 + coming.length) break;
  }
  return { days: coming, fallback: coming.length > 0 ? null : 'past_date' };
}

/**
 * The cells of the grid the arm reaches at all: those whose centre lies less than half a step
 * beyond the arm's end, as the watermap shares water out to them.
 */
export function gridCells(grid: WaterGrid, armLength: number): GridCell[] {
  const limit = armLength + grid.step / 2;
  const reach = Math.ceil(limit / grid.step);
  const cells: GridCell[] = [];
  for (let x = -reach; x < reach; x += 1) {
    for (let y = -reach; y < reach; y += 1) {
      if (Math.hypot((x + 0.5) * grid.step, (y + 0.5) * grid.step) >= limit) continue;
      const [lat, lng] = cellCentre(grid.centre, x, y);
      cells.push({ x, y, lat, lng, index: cells.length });
    }
  }
  return cells;
}

/**
 * The seasons' cells: crop areas' seasons hold the cells their areas cover (the first season
 * listed keeps a cell two areas share); the whole circle's season holds the cells left. Seasons
 * left with no cell are dropped.
 */
export async function claimCells(
  covers: WaterBalanceCovers<GridCell>,
  grid: MachineCovers<GridCell>,
  areaMap: GeoJson,
  seasons: readonly CropSeasonRow[],
): Promise<Claim[]> {
  let unclaimed = grid.cells;
  const claims = seasons
    .map((season): Claim => ({ season, cells: [] }))
    .sort((a, b) => Number(a.season.polygon === null) - Number(b.season.polygon === null));
  for (const claim of claims) {
    const area = claim.season.polygon;
    if (area === null) {
      claim.cells = unclaimed.slice();
      unclaimed = [];
      continue;
    }
    const within = await covers.area(grid, area, areaMapPolygons(areaMap, 'crop', area));
    const left: GridCell[] = [];
    for (const cell of unclaimed) {
      if (within[cell.index] === 1) claim.cells.push(cell);
      else left.push(cell);
    }
    unclaimed = left;
  }
  return claims.filter((claim) => claim.cells.length > 0);
}

/** Each claim's probes' readings around its season's emergence, which the season starts from (docs/advice.md, "Probes"). */
export async function seasonStartReadings(
  sources: BalanceSources,
  sprinkler: SprinklerRow,
  grid: WaterGrid,
  claims: readonly Claim[],
): Promise<ProbeReading[][]> {
  const { db, weather, timeZone } = sources;
  const readingsOf = new Map<string, Promise<ProbeReading[]>>();
  for (const { season } of claims) {
    if (readingsOf.has(season.emergence)) continue;
    const start = localMidnight(timeZone, season.emergence).getTime();
    const end = localMidnight(timeZone, addDays(season.emergence, 1)).getTime();
    readingsOf.set(
      season.emergence,
      weather.probeReadings(
        db,
        grid.centre,
        sprinkler.armLength,
        new Date(start - SEASON_START_WINDOW_MS),
        new Date(end - 1),
      ),
    );
  }
  return Promise.all(
    claims.map(async (claim) => readingsInCells(await readingsOf.get(claim.season.emergence)!, claim.cells, grid)),
  );
}
