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
  polygonContains,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import { localDate, startOfLocalDay } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import { WATER_GRID_STEP_M, type WatermapService, cellCentre } from '../watermap';
import type { StationDay, WeatherService } from '../weather';
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
import { activeProgramOf } from './water-balance.repository';

export type WaterBalanceServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  watermap: WatermapService;
  weather: WeatherService;
  /** The farmers' time zone: its calendar days are the balance's days. */
  timeZone: string;
};

const DAY_MS = 86_400_000;
/** The days whose mean ETc stands in for the coming days without a forecast service. */
const RECENT_DAYS = 7;

/** A cell of the machine's grid: its index east and north of the centre and its centre's position. */
type GridCell = { x: number; y: number; lat: number; lng: number };

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
      cells.push({ x, y, lat, lng });
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
  constructor(private readonly deps: WaterBalanceServiceDeps) {}

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
      forecast: 'recent-etc',
      zones: [],
      sectors: [],
      step: WATER_GRID_STEP_M,
      cells: [],
    });
    const seasons = (await listCropSeasons(db, sprinkler.id)).filter((season) => runsOn(season, lastDay));
    if (seasons.length === 0) return empty('no_season');

    const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
    const firstDay = Math.min(...seasons.map((season) => dayNumber(season.emergence)));
    const [stationDays, water, program] = await Promise.all([
      weather.dailyWeatherNear(db, centre, isoOfDayNumber(firstDay), date),
      watermap.dailyWater(sprinkler.internalId, new Date(firstDay * DAY_MS), new Date(lastDay * DAY_MS)),
      activeProgramOf(db, sprinkler.internalId),
    ]);
    if (stationDays.stationId === null) return empty('no_weather_station');
    const weatherOf = new Map<number, StationDay>(stationDays.days.map((day) => [dayNumber(day.date), day]));
    const waterOf = new Map(water.cells.map((cell) => [`${cell.x}:${cell.y}`, cell.daily]));

    // Crop areas' seasons hold their cells; the whole circle's season holds the cells left.
    const unclaimed = gridCells(centre, sprinkler.armLength);
    const claims = seasons
      .map((season) => ({ season, cells: [] as GridCell[] }))
      .sort((a, b) => Number(a.season.polygon === null) - Number(b.season.polygon === null));
    for (const claim of claims) {
      const polygons = claim.season.polygon === null ? null : cropAreaPolygons(sprinkler.areaMap, claim.season.polygon);
      for (let index = 0; index < unclaimed.length; index += 1) {
        const cell = unclaimed[index]!;
        if (polygons === null || polygons.some((rings) => polygonContains(rings, [cell.lng, cell.lat]))) {
          claim.cells.push(cell);
          unclaimed.splice(index, 1);
          index -= 1;
        }
      }
    }

    const zones = claims
      .filter((claim) => claim.cells.length > 0)
      .map((claim) => {
        const season = claim.season;
        const emergence = dayNumber(season.emergence);
        // The watermap's days start on the earliest season's emergence; this season's, on its own.
        const waterOfCells = claim.cells.map((cell) => waterOf.get(`${cell.x}:${cell.y}`));
        return runZone(season, claim.cells, emergence, lastDay, weatherOf, waterOfCells, emergence - firstDay);
      });
    const sectors = sectorsOf(program, zones);
    let missingWeatherDays = 0;
    for (let day = firstDay; day <= lastDay; day += 1) if (!weatherOf.has(day)) missingWeatherDays += 1;
    return {
      date: dotted(date),
      reason: null,
      station: stationDays.stationId,
      missingWeatherDays,
      forecast: 'recent-etc',
      zones: zones.map((zone) => summarise(zone.name, [{ zone, indices: zone.cells.map((_, index) => index) }], date)),
      sectors: sectors.map(({ name, parts }) => summarise(name, parts, date)),
      step: WATER_GRID_STEP_M,
      cells: zones.flatMap((zone) =>
        zone.cells.map((cell, index): [number, number, number, number] => [
          cell.lat,
          cell.lng,
          round(zone.depletion[index]!, 1),
          round(zone.curves.totalAvailableWater[zone.lastDay - 1]!, 1),
        ]),
      ),
    };
  }
}

/** Runs one zone's cells from emergence through the day asked for. */
function runZone(
  season: CropSeasonRow,
  cells: GridCell[],
  emergence: number,
  lastDate: number,
  weatherOf: ReadonlyMap<number, StationDay>,
  /** Each cell's water of each day from `waterOffset` days before emergence; undefined: never watered. */
  waterOfCells: (Float64Array | undefined)[],
  waterOffset: number,
): ZoneRun {
  const crop = seasonCrop(season.crop, season.depletionFraction);
  const soil = soilWater(season.soil);
  const efficiency = season.efficiency ?? DEFAULT_APPLICATION_EFFICIENCY;
  const days = lastDate - emergence + 1;
  const count = cells.length;
  const seasonWeather = {
    referenceEvapotranspiration: new Float64Array(days),
    rain: new Float64Array(days),
    wind: new Float64Array(days),
    minHumidity: new Float64Array(days),
  };
  const applied = new Float64Array(days * count);
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
  for (let cell = 0; cell < count; cell += 1) {
    const daily = waterOfCells[cell];
    if (!daily) continue;
    for (let index = 0; index < days; index += 1) applied[index * count + cell] = daily[waterOffset + index]!;
  }
  const curves = seasonCurves(crop, soil, seasonWeather);
  const run = runCells(curves, { count, applied }, { efficiency });
  const lastOffset = (days - 1) * count;
  return {
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
    outlook: meanEvapotranspirationOutlook(
      crop,
      soil,
      days + 1,
      meanRecentEvapotranspiration(curves, days, RECENT_DAYS, reported),
    ),
  };
}

/** Some of a zone's cells, by their index in it. */
type ZonePart = { zone: ZoneRun; indices: number[] };

/** The sectors of the active program that water (forbidden zones left out), each as the parts of the zones it covers. */
function sectorsOf(program: ProgramData | null, zones: ZoneRun[]): { name: string; parts: ZonePart[] }[] {
  if (program === null) return [];
  return program.features
    .filter((sector) => !isForbiddenZone(sector))
    .map((sector) => ({
      name: sector.properties.name,
      parts: zones
        .map((zone) => ({
          zone,
          indices: zone.cells.flatMap((cell, index) =>
            polygonContains(sector.geometry.coordinates, [cell.lng, cell.lat]) ? [index] : [],
          ),
        }))
        .filter((part) => part.indices.length > 0),
    }))
    .filter((sector) => sector.parts.length > 0);
}

/**
 * An area's state: means over its cells (least and most for the depletion); the next irrigation
 * of each zone's part from that part's mean depletion, the earliest of them answered with its doses.
 */
function summarise(name: string, parts: ZonePart[], date: string): WaterBalanceArea {
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
  // Depth at 100 % is not known yet (a later step learns it): no percent timer.
  const doses = earliest && irrigationDoses(earliest.netDose, earliest.efficiency, null);
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
    percentTimer: doses?.percentTimer === null || !doses ? null : round(doses.percentTimer, 1),
  };
}
