import {
  type CropChoice,
  type GeoJson,
  type ProgramData,
  type SoilChoice,
  type WaterBalance,
  type WaterBalanceArea,
  type WaterBalanceQuery,
  type WaterBalanceReason,
  isForbiddenZone,
} from '@pivot/contracts';
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import { addDays, localDate, localMidnight, startOfLocalDay } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import {
  LEAST_SHOWN_WATER_MM,
  type RunningSlice,
  WATER_GRID_STEP_M,
  type WatermapService,
  cellCentre,
} from '../watermap';
import type { StationDay, WeatherService } from '../weather';
import { percentTimerPlan } from './application-depth';
import type { ForecastClient, ForecastDay } from './forecast';
import type { ApplicationDepthService } from './application-depth.service';
import { seasonLength } from './crop-coefficient';
import { listCropSeasons } from './crop-seasons.repository';
import type { CropSeasonRow } from './crop-seasons.table';
import {
  DEFAULT_APPLICATION_EFFICIENCY,
  type Outlook,
  irrigationDoses,
  meanEvapotranspirationOutlook,
  meanRecentEvapotranspiration,
  nextIrrigation,
  outlookFromCurves,
} from './irrigation-advice';
import { SOIL_TEXTURES, type SoilWater } from './soil-table';
import {
  type SeasonCrop,
  type SeasonCurves,
  customSeasonCrop,
  runCells,
  seasonCurves,
  tableSeasonCrop,
} from './water-balance';
import { WaterBalanceCovers } from './water-balance.covers';
import { type KeptState, KeptStates } from './water-balance.kept-state';
import { activeProgramOf } from './water-balance.repository';
import {
  PROBE_LOOKBACK_MS,
  type ProbeReading,
  SEASON_START_WINDOW_MS,
  correctByProbes,
  readingsInCells,
  seasonStartDepletion,
} from './probes';

export type WaterBalanceServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  watermap: WatermapService;
  weather: WeatherService;
  /** The farmers' time zone: its calendar days are the balance's days. */
  timeZone: string;
  /** The seasons' kept states; a service of its own by default. */
  keptStates?: KeptStates;
  /** The coming days' ET0 and rain (`FORECAST_URL`); without it, or when it fails, the recent ETc. */
  forecast?: Pick<ForecastClient, 'daily'>;
  /** The machine's depth at 100 %, for the percent timer; without it no timer is given. */
  applicationDepth?: Pick<ApplicationDepthService, 'of'>;
};

const DAY_MS = 86_400_000;
/** The days whose mean ETc stands in for the coming days without a forecast service. */
const RECENT_DAYS = 7;

/** A cell of the machine's grid: its index east and north of the centre, its centre's position, and its place in the grid's list. */
type GridCell = { x: number; y: number; lat: number; lng: number; index: number };

/** A crop zone's season run up to the day asked for. */
type ZoneRun = {
  name: string;
  cells: GridCell[];
  efficiency: number;
  curves: SeasonCurves;
  /** The season day asked for (1 = emergence): the last one run. */
  lastDay: number;
  referenceEvapotranspiration: number;
  rain: number;
  depletion: Float64Array;
  /** Ks and the water measured on each cell, on the last day. */
  stress: Float64Array;
  applied: Float64Array;
  /** Each cell's last day with water (a day number), through the day asked for; -1: none since emergence. */
  lastWater: Int32Array;
  outlook: Outlook;
};

function dayNumber(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
}

function isoOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function dotted(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

function isoOfDotted(dottedDate: string): string {
  const [day, month, year] = dottedDate.split('.');
  return `${year}-${month}-${day}`;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function seasonCrop(crop: CropChoice, depletionFraction: number | null): SeasonCrop {
  if (typeof crop === 'string') return tableSeasonCrop(crop, depletionFraction ?? undefined);
  const [initial, midSeason, end] = crop.kc;
  const [initialDays, development, midSeasonDays, lateSeason] = crop.stages;
  return customSeasonCrop({
    kc: { initial, midSeason, end },
    stages: { initial: initialDays, development, midSeason: midSeasonDays, lateSeason },
    rootDepth: { min: crop.rootDepth[0], max: crop.rootDepth[1] },
    depletionFraction: depletionFraction ?? crop.p,
  });
}

function soilWater(soil: SoilChoice): SoilWater {
  return typeof soil === 'string' ? SOIL_TEXTURES[soil] : soil;
}

/**
 * The cells of the grid the arm reaches at all: those whose centre lies less than half a step
 * beyond the arm's end, as the watermap shares water out to them.
 */
function gridCells(centre: { lat: number; lng: number }, armLength: number): GridCell[] {
  const step = WATER_GRID_STEP_M;
  const limit = armLength + step / 2;
  const reach = Math.ceil(limit / step);
  const cells: GridCell[] = [];
  for (let x = -reach; x < reach; x += 1) {
    for (let y = -reach; y < reach; y += 1) {
      if (Math.hypot((x + 0.5) * step, (y + 0.5) * step) >= limit) continue;
      const [lat, lng] = cellCentre(centre, x, y);
      cells.push({ x, y, lat, lng, index: cells.length });
    }
  }
  return cells;
}

/** The polygons (each its rings) of the crop area of that name on the machine's map. */
function cropAreaPolygons(areaMap: GeoJson, name: string): number[][][][] {
  if (areaMap.type !== 'FeatureCollection' && areaMap.type !== 'Feature') return [];
  const features = areaMap.type === 'FeatureCollection' ? areaMap.features : [areaMap];
  const polygons: number[][][][] = [];
  for (const feature of features) {
    const properties = feature.properties ?? {};
    if (properties.kind !== 'crop' || typeof properties.name !== 'string' || properties.name.trim() !== name) continue;
    if (feature.geometry?.type === 'Polygon') polygons.push(feature.geometry.coordinates);
    if (feature.geometry?.type === 'MultiPolygon') polygons.push(...feature.geometry.coordinates);
  }
  return polygons;
}

/** Whether a season runs on a day: from its emergence through its last day (Table 11's stages). */
function runsOn(season: CropSeasonRow, day: number): boolean {
  const first = dayNumber(season.emergence);
  const stages = seasonCrop(season.crop, season.depletionFraction).parameters.stages;
  return first <= day && day < first + seasonLength(stages);
}

/**
 * The soil-water balance of a machine's field at the end of a day (docs/advice.md): every crop
 * zone's cells run day by day from emergence on the station's weather and the watermap's water.
 */
export class WaterBalanceService {
  /** The seasons' kept states (docs/advice.md, "Kept state"). */
  readonly keptStates: KeptStates;

  /** Which cells each crop area and sector holds, per version of the map and the program. */
  readonly covers = new WaterBalanceCovers<GridCell>();

  constructor(private readonly deps: WaterBalanceServiceDeps) {
    this.keptStates = deps.keptStates ?? new KeptStates();
  }

  async balance(actor: SignedInUser, sprinklerId: number, query: WaterBalanceQuery): Promise<WaterBalance> {
    const { db, sprinklers, watermap, weather, timeZone } = this.deps;
    const sprinkler = await sprinklers.accessible(actor, sprinklerId);
    const date =
      query.date === undefined ? localDate(timeZone, startOfLocalDay(timeZone).getTime() - 1) : isoOfDotted(query.date);
    const lastDay = dayNumber(date);
    const empty = (reason: WaterBalanceReason, station: string | null = null): WaterBalance => ({
      date: dotted(date),
      reason,
      station,
      missingWeatherDays: 0,
      lastRain: null,
      forecast: 'recent-etc',
      applicationDepth: null,
      zones: [],
      sectors: [],
      step: WATER_GRID_STEP_M,
      cells: [],
      probes: [],
    });
    const seasons = (await listCropSeasons(db, sprinkler.id)).filter((season) => runsOn(season, lastDay));
    if (seasons.length === 0) return empty('no_season');

    const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
    const firstDay = Math.min(...seasons.map((season) => dayNumber(season.emergence)));
    // The probes' newest readings at or before the end of the day (docs/advice.md, "Probes").
    const endOfDay = localMidnight(timeZone, addDays(date, 1)).getTime();
    const [stationDays, program, depth, probeReadings] = await Promise.all([
      weather.dailyWeatherNear(db, centre, isoOfDayNumber(firstDay), date),
      activeProgramOf(db, sprinkler.internalId),
      this.deps.applicationDepth?.of(sprinkler),
      weather.probeReadings(
        db,
        centre,
        sprinkler.armLength,
        new Date(endOfDay - PROBE_LOOKBACK_MS),
        new Date(endOfDay - 1),
      ),
    ]);
    const depthAtFullSpeed = depth?.depthAtFullSpeed ?? null;
    if (stationDays.stationId === null) return empty('no_weather_station');
    const stationId = stationDays.stationId;
    // The forecast's days from the day after the one asked for on, without a gap; none: the recent ETc.
    const forecastDays =
      this.deps.forecast && stationDays.position ? await this.deps.forecast.daily(stationDays.position) : null;
    const coming: ForecastDay[] = [];
    for (const day of forecastDays ?? []) {
      const number = dayNumber(day.date);
      if (number === lastDay + 1 + coming.length) coming.push(day);
      else if (number > lastDay + 1 + coming.length) break;
    }
    const forecastSource = coming.length > 0 ? 'forecast' : 'recent-etc';
    const weatherOf = new Map<number, StationDay>(stationDays.days.map((day) => [dayNumber(day.date), day]));

    // Crop areas' seasons hold their cells; the whole circle's season holds the cells left.
    const covers = this.covers.grid(sprinkler, () => gridCells(centre, sprinkler.armLength));
    let unclaimed = covers.cells;
    const claims = seasons
      .map((season) => ({ season, cells: [] as GridCell[] }))
      .sort((a, b) => Number(a.season.polygon === null) - Number(b.season.polygon === null));
    for (const claim of claims) {
      const area = claim.season.polygon;
      if (area === null) {
        claim.cells = unclaimed.slice();
        unclaimed = [];
        continue;
      }
      const within = await this.covers.area(covers, area, cropAreaPolygons(sprinkler.areaMap, area));
      const left: GridCell[] = [];
      for (const cell of unclaimed) {
        if (within[cell.index] === 1) claim.cells.push(cell);
        else left.push(cell);
      }
      unclaimed = left;
    }

    // The probes' readings around each season's emergence, which the season starts from (docs/advice.md, "Probes").
    const grid = { centre, step: WATER_GRID_STEP_M };
    const claimed = claims.filter((claim) => claim.cells.length > 0);
    const startReadingsOf = new Map<string, Promise<ProbeReading[]>>();
    for (const { season } of claimed) {
      if (startReadingsOf.has(season.emergence)) continue;
      const start = localMidnight(timeZone, season.emergence).getTime();
      const end = localMidnight(timeZone, addDays(season.emergence, 1)).getTime();
      startReadingsOf.set(
        season.emergence,
        weather.probeReadings(
          db,
          centre,
          sprinkler.armLength,
          new Date(start - SEASON_START_WINDOW_MS),
          new Date(end - 1),
        ),
      );
    }
    const startReadings = await Promise.all(
      claimed.map(async (claim) =>
        readingsInCells(await startReadingsOf.get(claim.season.emergence)!, claim.cells, grid),
      ),
    );

    // Each zone goes on from its kept state when the state still holds (docs/advice.md, "Kept state").
    const waterSinceYear = yearOf(firstDay);
    const lastYear = yearOf(lastDay);
    const lastCompleteDay = dayNumber(localDate(timeZone, startOfLocalDay(timeZone).getTime() - 1));
    const plans = claimed.map((claim, index) => {
      const emergence = dayNumber(claim.season.emergence);
      const probeStart = startReadings[index]!;
      const inputs = inputsDigest(claim.season, claim.cells, stationId, waterSinceYear, probeStart);
      const kept = this.keptStates.get(claim.season.id);
      const usable =
        kept !== undefined &&
        kept.inputs === inputs &&
        kept.validThrough >= emergence &&
        kept.validThrough < lastDay &&
        lastYear <= kept.lastYear &&
        kept.weather === weatherDigest(weatherOf, emergence, kept.validThrough);
      return { ...claim, emergence, probeStart, inputs, kept, state: usable ? kept : undefined };
    });

    // The water: the rows changed since the kept states' revision over their slices, or every row.
    let revision: number;
    let sumsOf: (plan: (typeof plans)[number]) => CellSums[];
    const held = plans.flatMap((plan) => (plan.state ? [plan.state] : []));
    if (held.length > 0) {
      const since = Math.min(...held.map((state) => state.revision));
      const lowest = Math.min(...held.map((state) => state.validThrough));
      const changed = await watermap.changedWater(sprinkler.internalId, {
        firstYear: waterSinceYear,
        lastYear,
        lowerYear: yearOf(lowest),
        lower: dayOfYearOf(lowest),
        sinceRevision: since,
      });
      revision = changed.revision;
      const changedOf = groupByCell(changed.rows);
      const updated = new Map<number, CellSums[]>();
      for (const plan of plans) {
        const state = plan.state;
        if (!state) continue;
        const keptYear = yearOf(state.validThrough);
        const keptDay = dayOfYearOf(state.validThrough);
        const sums = state.sums.slice();
        let stale = false;
        plan.cells.forEach((cell, index) => {
          const rows = changedOf.get(`${cell.x}:${cell.y}`);
          if (!rows || stale) return;
          // Water added to a day the state holds: it no longer holds.
          if (rows.some((row) => row.year < keptYear)) stale = true;
          else if (
            rows.some((row) => row.year === keptYear) &&
            sumThrough(rows, keptYear, keptDay) !== state.water[index]
          )
            stale = true;
          else sums[index] = mergeSlices(sums[index]!, rows);
        });
        if (stale) plan.state = undefined;
        else updated.set(plan.season.id, sums);
      }
      sumsOf = (plan) => updated.get(plan.season.id)!;
    } else {
      revision = 0;
      sumsOf = () => [];
    }
    if (plans.some((plan) => plan.state === undefined)) {
      const needed = Math.min(...plans.filter((plan) => plan.state === undefined).map((plan) => plan.emergence));
      const all = await watermap.changedWater(sprinkler.internalId, {
        firstYear: waterSinceYear,
        lastYear,
        lowerYear: yearOf(needed - 1),
        lower: dayOfYearOf(needed - 1),
        sinceRevision: -1,
      });
      revision = all.revision;
      const allOf = groupByCell(all.rows);
      // Every row read afresh: the kept states are checked against them, and all zones read them.
      for (const plan of plans) {
        const state = plan.state;
        if (!state) continue;
        const keptYear = yearOf(state.validThrough);
        const keptDay = dayOfYearOf(state.validThrough);
        const changed = plan.cells.some(
          (cell, index) => sumThrough(allOf.get(`${cell.x}:${cell.y}`), keptYear, keptDay) !== state.water[index],
        );
        if (changed) plan.state = undefined;
      }
      sumsOf = (plan) => plan.cells.map((cell) => allOf.get(`${cell.x}:${cell.y}`) ?? []);
    }

    const zones = plans.map((plan) => {
      const { season, cells, emergence, probeStart, state } = plan;
      if (state) this.keptStates.counts.resumed += 1;
      else this.keptStates.counts.fromEmergence += 1;
      // Kept at the day before the one asked for, once that day is over; an earlier day asked
      // for does not replace a later state of the same season.
      const keepAt = Math.min(lastDay - 1, lastCompleteDay);
      const laterKept = plan.kept !== undefined && plan.kept.inputs === plan.inputs && plan.kept.validThrough > keepAt;
      // The same day kept at the same revision: nothing to keep anew.
      const unchanged = state !== undefined && keepAt === state.validThrough && revision === state.revision;
      const keep =
        keepAt >= emergence && keepAt >= (state?.validThrough ?? Number.NEGATIVE_INFINITY) && !laterKept && !unchanged;
      const sums = sumsOf(plan);
      const from = state === undefined ? emergence : state.validThrough + 1;
      const run = runZone(
        season,
        cells,
        emergence,
        lastDay,
        weatherOf,
        coming,
        waterOfDays(sums, from, lastDay),
        state,
        probeStart,
        keep ? keepAt : null,
      );
      if (keep) {
        const keptYear = yearOf(keepAt);
        const keptDay = dayOfYearOf(keepAt);
        this.keptStates.set(season.id, {
          inputs: plan.inputs,
          weather: weatherDigest(weatherOf, emergence, keepAt),
          validThrough: keepAt,
          lastYear,
          revision,
          depletion: run.kept ?? state!.depletion,
          lastWater: run.keptLastWater ?? state!.lastWater,
          water: Float64Array.from(sums, (cell) => sumThrough(cell, keptYear, keptDay)),
          sums: sums.map((cell) => trimSlices(cell, keptYear, keptDay)),
        });
      }
      return run.zone;
    });
    // The probes move their zones' cells for this answer only: the kept states hold the model's.
    const correction = correctByProbes(
      zones.map((zone, index) => ({
        name: zone.name,
        cells: zone.cells,
        depletion: zone.depletion,
        soil: soilWater(plans[index]!.season.soil),
        rootDepth: zone.curves.rootDepth[zone.lastDay - 1]!,
        totalAvailableWater: zone.curves.totalAvailableWater[zone.lastDay - 1]!,
      })),
      probeReadings,
      grid,
      endOfDay,
    );
    zones.forEach((zone, index) => {
      zone.depletion = correction.depletions[index]!;
    });
    const sectorCells = program && (await this.covers.program(covers, program.version, program.programData));
    const sectors =
      program && sectorCells ? sectorsOf(program.programData, sectorCells, zones, covers.cells.length) : [];
    let missingWeatherDays = 0;
    let lastRain: number | null = null;
    for (let day = firstDay; day <= lastDay; day += 1) {
      const reading = weatherOf.get(day);
      if (!reading) missingWeatherDays += 1;
      else if (reading.rain > 0) lastRain = day;
    }
    return {
      date: dotted(date),
      reason: null,
      station: stationDays.stationId,
      missingWeatherDays,
      lastRain: lastRain === null ? null : dotted(isoOfDayNumber(lastRain)),
      forecast: forecastSource,
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
      probes: correction.probes,
    };
  }
}

/** A cell's running sums, a slice per year (none: never watered). */
type CellSums = readonly RunningSlice[];

function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** The day in its year (1 January is 1) of a day number. */
function dayOfYearOf(day: number): number {
  return day - Date.UTC(yearOf(day), 0, 1) / DAY_MS + 1;
}

/** A cell's water from 1 January through a day of that year, as the watermap stores it. */
function sumThrough(sums: CellSums | undefined, year: number, day: number): number {
  const slice = sums?.find((candidate) => candidate.year === year);
  if (!slice || day < slice.offset) return 0;
  return slice.sums[Math.min(day - slice.offset, slice.sums.length - 1)]!;
}

function groupByCell(rows: RunningSlice[]): Map<string, RunningSlice[]> {
  const cells = new Map<string, RunningSlice[]>();
  for (const row of rows) {
    const key = `${row.x}:${row.y}`;
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

/** What a kept state needs of a cell's sums: its years from the kept day's on, that year's from the day. */
function trimSlices(sums: CellSums, year: number, day: number): CellSums {
  return sums.flatMap((slice) => {
    if (slice.year < year) return [];
    if (slice.year > year || slice.offset >= day) return [slice];
    const drop = Math.min(day - slice.offset, slice.sums.length - 1);
    return [{ ...slice, offset: slice.offset + drop, sums: slice.sums.slice(drop) }];
  });
}

/** The cells' water of each day from `first` through `last` (day numbers): `water[dayIndex * count + cell]`. */
function waterOfDays(sums: CellSums[], first: number, last: number): Float64Array {
  const count = sums.length;
  const days = Math.max(0, last - first + 1);
  const water = new Float64Array(days * count);
  for (let index = 0; index < days; index += 1) {
    const year = yearOf(first + index);
    const day = dayOfYearOf(first + index);
    for (let cell = 0; cell < count; cell += 1) {
      const cellSums = sums[cell]!;
      if (cellSums.length === 0) continue;
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

/** The station's days from `first` through `last` (day numbers), as the balance takes them. */
function weatherDigest(weatherOf: ReadonlyMap<number, StationDay>, first: number, last: number): string {
  const values: (number | null)[] = [];
  for (let day = first; day <= last; day += 1) {
    const reading = weatherOf.get(day);
    if (reading === undefined) values.push(null);
    else values.push(reading.referenceEvapotranspiration, reading.rain, reading.wind, reading.minHumidity);
  }
  return createHash('sha1').update(JSON.stringify(values)).digest('base64');
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
  /** The forecast's days after `lastDate`, in order; none: the recent ETc stands for the coming days. */
  coming: readonly ForecastDay[],
  /** The cells' water from the first day run through `lastDate`: `water[dayIndex * count + cell]`. */
  water: Float64Array,
  state: KeptState | undefined,
  /** Without a kept state: the zone's probes' readings around emergence, which the season starts from. */
  startReadings: readonly ProbeReading[],
  keepAt: number | null,
): { zone: ZoneRun; kept: Float64Array | null; keptLastWater: Int32Array | null } {
  const crop = seasonCrop(season.crop, season.depletionFraction);
  const soil = soilWater(season.soil);
  const efficiency = season.efficiency ?? DEFAULT_APPLICATION_EFFICIENCY;
  const days = lastDate - emergence + 1;
  const count = cells.length;
  // The forecast's days run on after the measured ones, within the season.
  const ahead = Math.max(0, Math.min(coming.length, seasonLength(crop.parameters.stages) - days));
  const seasonWeather = {
    referenceEvapotranspiration: new Float64Array(days + ahead),
    rain: new Float64Array(days + ahead),
    wind: new Float64Array(days + ahead).fill(Number.NaN),
    minHumidity: new Float64Array(days + ahead).fill(Number.NaN),
  };
  for (let index = 0; index < ahead; index += 1) {
    seasonWeather.referenceEvapotranspiration[days + index] = coming[index]!.referenceEvapotranspiration;
    seasonWeather.rain[days + index] = coming[index]!.rain;
  }
  const reported = new Array<boolean>(days);
  for (let index = 0; index < days; index += 1) {
    // A day the station did not report counts as no ET0 and no rain; the answer says how many.
    const day = weatherOf.get(emergence + index);
    reported[index] = day !== undefined;
    seasonWeather.referenceEvapotranspiration[index] = day?.referenceEvapotranspiration ?? 0;
    seasonWeather.rain[index] = day?.rain ?? 0;
    seasonWeather.wind[index] = day?.wind ?? Number.NaN;
    seasonWeather.minHumidity[index] = day?.minHumidity ?? Number.NaN;
  }
  const curves = seasonCurves(crop, soil, seasonWeather);
  // Season days (1 = emergence) run: from the kept state's next day, or from emergence.
  const firstRun = state === undefined ? 1 : state.validThrough - emergence + 2;
  /** The cells' water from season day `from` through `to`, day by day. */
  const appliedOf = (from: number, to: number) =>
    water.subarray((from - firstRun) * count, (to - firstRun + 1) * count);
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
  if (keepDay !== null && keepDay >= firstRun && keepDay < days) {
    // Two legs, so the kept depletion is the run's own at full precision.
    const leg = runCells(
      curves,
      { count, applied: appliedOf(legStart, keepDay) },
      { efficiency, firstDay: legStart, lastDay: keepDay, startDepletion },
    );
    kept = leg.finalDepletion;
    startDepletion = kept;
    legStart = keepDay + 1;
  }
  const applied = appliedOf(legStart, days);
  const run = runCells(curves, { count, applied }, { efficiency, firstDay: legStart, lastDay: days, startDepletion });
  const lastOffset = (days - legStart) * count;
  return {
    kept,
    keptLastWater: kept === null ? null : keptLastWater,
    zone: {
      name: season.name,
      cells,
      efficiency,
      curves,
      lastDay: days,
      referenceEvapotranspiration: seasonWeather.referenceEvapotranspiration[days - 1]!,
      rain: seasonWeather.rain[days - 1]!,
      depletion: run.finalDepletion,
      stress: Float64Array.from(run.stress.subarray(lastOffset, lastOffset + count)),
      applied: applied.slice(lastOffset, lastOffset + count),
      lastWater,
      // The forecast's days, then the recent mean ETc for the rest of the season.
      outlook: concatOutlooks(
        outlookFromCurves(curves, days + 1),
        meanEvapotranspirationOutlook(
          crop,
          soil,
          days + 1 + ahead,
          meanRecentEvapotranspiration(curves, days, RECENT_DAYS, reported),
        ),
      ),
    },
  };
}

function concatOutlooks(first: Outlook, second: Outlook): Outlook {
  const join = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    const joined = new Float64Array(a.length + b.length);
    joined.set(a);
    joined.set(b, a.length);
    return joined;
  };
  return {
    cropEvapotranspiration: join(first.cropEvapotranspiration, second.cropEvapotranspiration),
    effectiveRain: join(first.effectiveRain, second.effectiveRain),
    totalAvailableWater: join(first.totalAvailableWater, second.totalAvailableWater),
    readilyAvailableWater: join(first.readilyAvailableWater, second.readilyAvailableWater),
  };
}

/** Some of a zone's cells, by their index in it. */
type ZonePart = { zone: ZoneRun; indices: number[] };

/**
 * The sectors of the active program that water (forbidden zones left out), each as the parts of
 * the zones it covers, from each sector's cells of the grid (`sectorCells`, in the program's order).
 */
function sectorsOf(
  program: ProgramData,
  sectorCells: readonly Int32Array[],
  zones: ZoneRun[],
  gridSize: number,
): { name: string; parts: ZonePart[] }[] {
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
function summarise(name: string, parts: ZonePart[], date: string, depthAtFullSpeed: number | null): WaterBalanceArea {
  let count = 0;
  const sums = { taw: 0, raw: 0, depletion: 0, ks: 0, etc: 0, et0: 0, rain: 0, applied: 0 };
  let depletionMin = Number.POSITIVE_INFINITY;
  let depletionMax = Number.NEGATIVE_INFINITY;
  let earliest: { daysAhead: number; netDose: number; efficiency: number } | null = null;
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
    sums.rain += zone.rain * indices.length;
    const need = nextIrrigation(partDepletion / indices.length, zone.outlook);
    if (need && (earliest === null || need.daysAhead < earliest.daysAhead))
      earliest = { ...need, efficiency: zone.efficiency };
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
    nextIrrigation: earliest === null ? null : dotted(isoOfDayNumber(dayNumber(date) + 1 + earliest.daysAhead)),
    netDose: doses ? round(doses.netDose, 2) : null,
    grossDose: doses ? round(doses.grossDose, 2) : null,
    percentTimer: timer === null ? null : round(timer.percentTimer, 1),
    passes: timer?.passes ?? null,
  };
}
