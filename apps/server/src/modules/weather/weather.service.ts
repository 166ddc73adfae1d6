import type { MessageSource } from '../../gateway/mqtt-gateway';
import {
  type HumiditySensor,
  PROTOCOL_VERSION,
  type SoilMessage,
  type WeatherMessage,
  type WeatherStation,
  topics,
} from '@pivot/contracts';
import { type Placeholder, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { BatchedWrites } from '../../db/batched-writes';
import type { Database, Queryable } from '../../db/client';
import type { HealthProblem } from '../../http/health';
import type { QuarantineService } from '../quarantine';
import { type LatLng, boundingBox, distanceM } from '../../geo/geo';
import { addDays, localMidnight, startOfLocalDay } from '../../time/local-day';
import { referenceEvapotranspiration } from './reference-evapotranspiration';
import {
  type Area,
  type DailySummary,
  dailySummaries,
  firstReadingTime,
  firstSoilReadingTime,
  readingsCount,
  soilReadingsCount,
  deleteReadingsBefore,
  insertWeatherReadings,
  insertWeatherReadingsOfControllers,
  latestReadingTimeColumn,
  lastStationPosition,
  type StationPlace,
  latestReadingsIn,
  rainSince,
  type SoilReading,
  type SoilSensorRow,
  dailySoilReadings,
  soilReadingsAtOrBefore,
  soilSensorsIn,
  soilSensorsInColumn,
  stationsReportingIn,
  upsertSoilReadings,
} from './weather.repository';

/** A station's or a soil sensor's reading, as its controller reported it, waiting to be stored. */
type PeripheralReading =
  | { kind: 'weather'; source: MessageSource; message: WeatherMessage }
  | { kind: 'soil'; source: MessageSource; message: SoilMessage };

/** Stations this close to a machine's centre show on its map. */
const STATION_RADIUS_M = 5000;
/** Sensors this far beyond the end of the arm still show on its map. */
const SENSOR_MARGIN_M = 100;
/** A reading counts as current for this long. */
const READING_LIFETIME_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The longest a machine's weather, once computed, is shown without computing it again. Within it
 * a new reading nearby shows at once (see `WeatherNear`); this bounds the time until a reading
 * arriving late, older than the newest, shows.
 */
const WEATHER_REFRESH_MS = 60 * 1000;

/** Old readings are deleted this many rows of a table per statement. */
const PRUNE_CHUNK = 10_000;

/** W/m² averaged over a day → MJ/m² over that day */
const WATTS_TO_DAILY_MEGAJOULES = 0.0864;

/** Station ranges whose days are kept (a season's days are a few KB), and as many ranges of probes' days. */
const KEPT_STATION_RANGES = 500;

/**
 * One local calendar day of a station, as the soil-water balance reads it: the day's ET0 and
 * what it was computed from, so that anyone can redo the balance by hand.
 */
export type StationDay = {
  /** YYYY-MM-DD in the farmers' time zone. */
  date: string;
  /** FAO-56 Penman-Monteith ET0 of the day, mm, from the day's readings as the detail's ETP. */
  referenceEvapotranspiration: number;
  rain: number;
  /** Mean wind of the day's readings, m/s, NaN when the station reports none (ET0 then takes 2 m/s). */
  wind: number;
  minHumidity: number;
  maxHumidity: number;
  minTemperature: number;
  maxTemperature: number;
  /** Global radiation of the day, MJ/m²; null when the station reports none and ET0 estimates it from the temperatures. */
  solarRadiation: number | null;
  /** How many readings the day is built from. */
  readings: number;
};

/** The nearest station's days over a range; days it did not report are absent. Null station: none within reach. */
export type StationDays = {
  stationId: string | null;
  days: StationDay[];
  /** Where the station is, when there is one, and the elevation its ET0 takes (m: its own, or STATION_ELEVATION_M). */
  position?: { lat: number; lng: number; elevation: number };
};

/** Machines' centres a user sees a station from, or anywhere (an administrator). */
export type SeenFrom = readonly LatLng[] | 'anywhere';

/**
 * The elevation ET0 takes for a station that does not report its own, m: most farmland in the
 * product's region lies low. A station on a highveld reports its own (1,280 m lowers the air
 * pressure by 14 %, and with it the psychrometric constant of FAO-56 Eq. 8).
 */
export const STATION_ELEVATION_M = 100;

/** The elevation a station's ET0 takes: its reported one, or STATION_ELEVATION_M. */
function elevationOf(place: { elevation: number | null }): number {
  return place.elevation ?? STATION_ELEVATION_M;
}

/**
 * The stations near a machine as `stationsNear` gives them, with what tells when that answer
 * stops being true: a reading in the stations' area newer than `latestReadingAt` (ms), or
 * `validUntil` (ms), the earliest of local midnight (rain today), the first shown reading's
 * expiry and `WEATHER_REFRESH_MS` from now.
 */
export type WeatherNear = {
  stations: WeatherStation[];
  latestReadingAt: number | null;
  validUntil: number;
};

export class WeatherService {
  /** Station days already summarised, by station and range, with the readings they came from (`readingsCount`). */
  private readonly keptDays = new Map<string, { count: number; last: number | null; days: StationDay[] }>();

  /** Probes' days already read, by area and range, with the readings they came from (`soilReadingsCount`). */
  private readonly keptProbeDays = new Map<string, { count: number; last: number | null; readings: SoilReading[] }>();

  /**
   * Stations' and sensors' readings, stored in batches as telemetry is: a fleet's thousands of
   * them a minute, a row at a time, would keep every pooled connection busy.
   */
  private readonly readings: BatchedWrites<PeripheralReading>;

  constructor(
    private readonly db: Database,
    /** The farmers' time zone: "today" for rainfall and the days of ETP are its calendar days. */
    private readonly timeZone: string,
    logger: FastifyBaseLogger,
    quarantine: QuarantineService,
    /** Readings older than this many days are deleted by `prune` (READINGS_RETENTION_DAYS). */
    private readonly retentionDays: number,
  ) {
    this.readings = new BatchedWrites(db, logger, {
      name: 'readings',
      items: 'station and sensor readings',
      write: storeReadings,
      // The reading as parsed is what the database refused: it stands in for the raw payload.
      setAside: ({ kind, source, message }, detail) =>
        quarantine.setAside({
          ...source,
          kind,
          topic: topics[kind](source.machineId, source.deviceId),
          payload: Buffer.from(JSON.stringify(message)),
          reason: 'refused',
          detail,
          explanation: { code: 'refused', databaseMessage: detail },
        }),
      describe: ({ kind, source }) => ({ kind, ...source }),
    });
  }

  /**
   * A station belongs to the controller that first reported it; another controller's readings
   * for it are dropped. Resolves once stored (or set aside, refused by the database).
   */
  recordWeather(source: MessageSource, message: WeatherMessage): Promise<void> {
    return this.readings.push({ kind: 'weather', source, message });
  }

  /** A sensor belongs to the controller that first reported it, as a station does. */
  recordSoil(source: MessageSource, message: SoilMessage): Promise<void> {
    return this.readings.push({ kind: 'soil', source, message });
  }

  /** Stores the readings received so far; resolves once they are in the database. */
  flush(): Promise<void> {
    return this.readings.flush();
  }

  /**
   * Deletes stations' readings and probes' history older than the retention, a chunk at a time;
   * each sensor's latest reading stays. Every instance may run it at any time. The number deleted.
   */
  async prune(now = Date.now()): Promise<number> {
    const before = new Date(now - this.retentionDays * DAY_MS);
    let deleted = 0;
    for (let chunk = PRUNE_CHUNK; chunk > 0; deleted += chunk) {
      chunk = await deleteReadingsBefore(this.db, before, PRUNE_CHUNK);
    }
    return deleted;
  }

  /** What health reports of storing readings on this instance. */
  problems(): HealthProblem[] {
    return this.readings.problems();
  }

  /** Weather stations near the machine with their current reading, rainfall and ETP over 7 days, and how long that holds. */
  async stationsNear(db: Queryable, centre: LatLng): Promise<WeatherNear> {
    const now = Date.now();
    const refreshAt = now + WEATHER_REFRESH_MS;
    const inArea = await latestReadingsIn(db, stationArea(centre), new Date(now - READING_LIFETIME_MS));
    const latestReadingAt = inArea.length === 0 ? null : Math.max(...inArea.map((reading) => reading.ts.getTime()));
    const readings = inArea.filter((reading) => distanceM(centre, reading) <= STATION_RADIUS_M);
    if (readings.length === 0) return { stations: [], latestReadingAt, validUntil: refreshAt };
    const ids = readings.map((reading) => reading.stationId);
    const today = startOfLocalDay(this.timeZone, new Date(now));
    // A day lasts 23 to 25 hours: 36 hours after today's start is always within tomorrow.
    const tomorrow = startOfLocalDay(this.timeZone, new Date(today.getTime() + 36 * 60 * 60 * 1000));
    const weekAgo = new Date(today.getTime() - 7 * DAY_MS);
    const [rain, days] = await Promise.all([
      rainSince(db, ids, today, weekAgo),
      dailySummaries(db, ids, weekAgo, today, this.timeZone),
    ]);
    const stations = readings.map((reading): WeatherStation => {
      const stationDays = days.filter((day) => day.stationId === reading.stationId);
      // A controller's own figure covers the week; ours covers the days of readings there are.
      const etp7d = reading.etp7d ?? sumEvapotranspiration(stationDays, reading.lat, elevationOf(reading));
      const etpDays = reading.etp7d === null ? stationDays.length : 7;
      return {
        id: reading.stationId,
        lat: reading.lat,
        lng: reading.lng,
        temperature: reading.temperature,
        humidity: reading.humidity,
        rainfall: round(rain.get(reading.stationId)?.today ?? 0),
        rainfall_7d: round(rain.get(reading.stationId)?.week ?? 0),
        ...(reading.wind === null ? {} : { wind: reading.wind }),
        ...(etp7d === null ? {} : { etp_7d: round(etp7d), etp_days: etpDays }),
        expire_timestamp: reading.ts.getTime() + READING_LIFETIME_MS,
      };
    });
    return {
      stations,
      latestReadingAt,
      validUntil: Math.min(
        refreshAt,
        tomorrow.getTime(),
        ...readings.map((reading) => reading.ts.getTime() + READING_LIFETIME_MS),
      ),
    };
  }

  /**
   * The days from `firstDate` to `lastDate` (YYYY-MM-DD, local, both included) of the station
   * nearest the machine's centre among those that reported within the detail's radius then.
   */
  async dailyWeatherNear(db: Queryable, centre: LatLng, firstDate: string, lastDate: string): Promise<StationDays> {
    const range = this.localDays(firstDate, lastDate);
    const nearest = (await stationsReportingIn(db, stationArea(centre), range.from, range.to))
      .map((station) => ({ ...station, distance: distanceM(centre, station) }))
      .filter((station) => station.distance <= STATION_RADIUS_M)
      .sort((a, b) => a.distance - b.distance || a.stationId.localeCompare(b.stationId))[0];
    if (!nearest) return { stationId: null, days: [] };
    return this.daysOf(db, nearest, range);
  }

  /**
   * A station's days from `firstDate` to `lastDate` as `dailyWeatherNear` gives them, for a user
   * who sees it: null when it never reported, or when its last position lies beyond the detail's
   * radius of every machine the user sees (to them it does not exist).
   */
  async stationDays(
    db: Queryable,
    stationId: string,
    firstDate: string,
    lastDate: string,
    seenFrom: SeenFrom,
  ): Promise<StationDays | null> {
    const newest = await lastStationPosition(db, stationId);
    if (!newest) return null;
    if (seenFrom !== 'anywhere' && !seenFrom.some((centre) => distanceM(centre, newest) <= STATION_RADIUS_M)) {
      return null;
    }
    const range = this.localDays(firstDate, lastDate);
    // As the balance does, ET0 takes the station's latitude where it last reported in the range.
    const inRange = await lastStationPosition(db, stationId, range);
    if (!inRange) return { stationId, position: { ...newest, elevation: elevationOf(newest) }, days: [] };
    return this.daysOf(db, { stationId, ...inRange }, range);
  }

  /** The instants local days from `firstDate` to `lastDate` (YYYY-MM-DD, both included) span: [from, to). */
  private localDays(firstDate: string, lastDate: string): { from: Date; to: Date } {
    return { from: localMidnight(this.timeZone, firstDate), to: localMidnight(this.timeZone, addDays(lastDate, 1)) };
  }

  /** A station's days over [from, to), its ET0 at the given position, kept while its readings there stay the same. */
  private async daysOf(
    db: Queryable,
    station: { stationId: string } & StationPlace,
    { from, to }: { from: Date; to: Date },
  ): Promise<StationDays> {
    const position = { lat: station.lat, lng: station.lng, elevation: elevationOf(station) };
    // A station's days are kept while its readings over the range are the same (readingsCount).
    const key = `${station.stationId}|${station.lat}|${position.elevation}|${from.toISOString()}|${to.toISOString()}`;
    const fingerprint = await readingsCount(db, station.stationId, from, to);
    const kept = this.keptDays.get(key);
    if (kept && kept.count === fingerprint.count && kept.last === fingerprint.last) {
      return { stationId: station.stationId, position, days: kept.days };
    }
    const summaries = await dailySummaries(db, [station.stationId], from, to, this.timeZone);
    const days = summaries
      .map((day): StationDay => ({
        date: day.day,
        referenceEvapotranspiration: dayEvapotranspiration(day, station.lat, position.elevation),
        rain: day.rain,
        wind: day.wind ?? Number.NaN,
        minHumidity: day.minHumidity,
        maxHumidity: day.maxHumidity,
        minTemperature: day.minTemperature,
        maxTemperature: day.maxTemperature,
        solarRadiation: dailyRadiation(day),
        readings: day.readings,
      }))
      .sort((a, b) => a.date.localeCompare(b.date));
    this.keptDays.delete(key);
    this.keptDays.set(key, { ...fingerprint, days });
    for (const oldest of this.keptDays.keys()) {
      if (this.keptDays.size <= KEPT_STATION_RANGES) break;
      this.keptDays.delete(oldest);
    }
    return { stationId: station.stationId, position, days };
  }

  /** Soil sensors within the machine's reach: latitude, longitude, moisture and depth when known. */
  async sensorsNear(db: Queryable, centre: LatLng, armLength: number): Promise<HumiditySensor[]> {
    return presentSensorsNear(
      centre,
      armLength,
      await soilSensorsIn(db, sensorArea(centre, armLength), readingsSince()),
    );
  }

  /**
   * Each soil probe's newest reading from [from, to] in the machine's area (its reach plus the
   * sensors' margin, as a box): the water balance's probes (docs/advice.md, "Probes").
   */
  probeReadings(db: Queryable, centre: LatLng, armLength: number, from: Date, to: Date): Promise<SoilReading[]> {
    return soilReadingsAtOrBefore(db, sensorArea(centre, armLength), from, to);
  }

  /**
   * Each soil probe's newest reading of each day (in `timeZone`) from [from, to] in the machine's
   * area. Kept while the readings of the range there are the same (their count and newest time,
   * as a station's days are): grouping a season's readings by day costs PGlite 20–40 ms of every
   * water balance, counting them about 5. The readings given are shared: never change them.
   */
  async dailyProbeReadings(
    db: Queryable,
    centre: LatLng,
    armLength: number,
    range: { from: Date; to: Date; timeZone: string },
  ): Promise<SoilReading[]> {
    const area = sensorArea(centre, armLength);
    const { from, to, timeZone } = range;
    const key = `${area.minLat}|${area.maxLat}|${area.minLng}|${area.maxLng}|${from.toISOString()}|${to.toISOString()}|${timeZone}`;
    const fingerprint = await soilReadingsCount(db, area, from, to);
    const kept = this.keptProbeDays.get(key);
    if (kept && kept.count === fingerprint.count && kept.last === fingerprint.last) return kept.readings;
    const readings = await dailySoilReadings(db, area, from, to, timeZone);
    this.keptProbeDays.delete(key);
    this.keptProbeDays.set(key, { ...fingerprint, readings });
    for (const oldest of this.keptProbeDays.keys()) {
      if (this.keptProbeDays.size <= KEPT_STATION_RANGES) break;
      this.keptProbeDays.delete(oldest);
    }
    return readings;
  }

  /**
   * What a machine's detail reads of the weather in its one query of the live state (see
   * docs/scaling.md, "The machine detail: cached between visits"): the soil sensors `sensorsNear` reads, for `presentSensorsNear`, and
   * the time of the newest reading where `stationsNear` looks, for `WeatherNear.latestReadingAt`.
   * Written with placeholders, for a query prepared once; `liveValues` gives a machine's values.
   */
  liveColumns() {
    const since = sql.placeholder('readingsSince');
    return {
      soilSensors: soilSensorsInColumn(areaPlaceholders('sensors'), since),
      stationsReadAt: latestReadingTimeColumn(areaPlaceholders('stations'), since),
    };
  }

  /** The values of the placeholders of `liveColumns` for a machine. */
  liveValues(centre: LatLng, armLength: number): Record<string, unknown> {
    return {
      readingsSince: readingsSince().toISOString(),
      ...areaValues('sensors', sensorArea(centre, armLength)),
      ...areaValues('stations', stationArea(centre)),
    };
  }
  /**
   * A probe's past, told afterwards (the demo's history), as `recordHistory` tells a station's:
   * only the readings before the probe's first stored one are kept. Answers how many were stored.
   */
  async recordSoilHistory(
    sensorId: string,
    machineId: string,
    messages: readonly Omit<SoilMessage, 'v'>[],
  ): Promise<number> {
    const first = await firstSoilReadingTime(this.db, sensorId);
    const earlier = first === null ? messages : messages.filter((message) => message.ts < first.getTime());
    const reporter = { sensorId, machineId };
    await upsertSoilReadings(
      this.db,
      earlier.map((message) => ({ reporter, message: { v: PROTOCOL_VERSION, ...message } })),
    );
    return earlier.length;
  }

  /**
   * A station's past, told afterwards (the demo's history, docs/advice.md): only the readings
   * before the station's first stored one are kept, so telling it again changes nothing.
   * Answers how many were stored.
   */
  async recordHistory(
    stationId: string,
    machineId: string,
    messages: readonly Omit<WeatherMessage, 'v'>[],
  ): Promise<number> {
    const first = await firstReadingTime(this.db, stationId);
    const earlier = first === null ? messages : messages.filter((message) => message.ts < first.getTime());
    await insertWeatherReadings(this.db, { stationId, machineId }, earlier);
    return earlier.length;
  }
}

function areaPlaceholders(name: string): Area<Placeholder> {
  const bound = (key: keyof Area) => sql.placeholder(`${name}.${key}`);
  return { minLat: bound('minLat'), maxLat: bound('maxLat'), minLng: bound('minLng'), maxLng: bound('maxLng') };
}

function areaValues(name: string, area: Area): Record<string, number> {
  return Object.fromEntries(Object.entries(area).map(([key, value]) => [`${name}.${key}`, value]));
}

function stationArea(centre: LatLng) {
  return boundingBox(centre, STATION_RADIUS_M);
}

function readingsSince(): Date {
  return new Date(Date.now() - READING_LIFETIME_MS);
}

function sensorArea(centre: LatLng, armLength: number) {
  return boundingBox(centre, armLength + SENSOR_MARGIN_M);
}

/** The sensors of those read in the machine's area that lie within its reach, by sensor ID. */
export function presentSensorsNear(
  centre: LatLng,
  armLength: number,
  sensors: Pick<SoilSensorRow, 'sensorId' | 'lat' | 'lng' | 'moisture' | 'depth'>[],
): HumiditySensor[] {
  const radius = armLength + SENSOR_MARGIN_M;
  return sensors
    .filter((sensor) => distanceM(centre, sensor) <= radius)
    .sort((a, b) => a.sensorId.localeCompare(b.sensorId))
    .map((sensor): HumiditySensor =>
      sensor.depth === null
        ? [sensor.lat, sensor.lng, sensor.moisture]
        : [sensor.lat, sensor.lng, sensor.moisture, sensor.depth],
    );
}

/** ETP summed over the days a station has readings for; null when it has none. */
function sumEvapotranspiration(days: DailySummary[], latitude: number, elevation: number): number | null {
  if (days.length === 0) return null;
  return days.reduce((sum, day) => sum + dayEvapotranspiration(day, latitude, elevation), 0);
}

/** A day's FAO-56 ET0, mm, from its summary at the station's latitude and elevation (m). */
function dayEvapotranspiration(day: DailySummary, latitude: number, elevation: number): number {
  const date = new Date(`${day.day}T12:00:00Z`);
  const dayOfYear = Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 0)) / DAY_MS);
  return referenceEvapotranspiration({
    dayOfYear,
    latitudeDegrees: latitude,
    elevationM: elevation,
    minTemperature: day.minTemperature,
    maxTemperature: day.maxTemperature,
    minHumidity: day.minHumidity,
    maxHumidity: day.maxHumidity,
    wind: day.wind ?? undefined,
    solarRadiation: dailyRadiation(day) ?? undefined,
  });
}

/** A day's global radiation, MJ/m², from its readings' mean W/m²; null when they carry none. */
function dailyRadiation(day: DailySummary): number | null {
  return day.solarRadiation === null ? null : day.solarRadiation * WATTS_TO_DAILY_MEGAJOULES;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A batch of stations' and sensors' readings, each kind in one statement. */
async function storeReadings(tx: Queryable, batch: PeripheralReading[]): Promise<void> {
  const weather = [];
  const soil = [];
  for (const { kind, source, message } of batch) {
    if (kind === 'weather')
      weather.push({ reporter: { stationId: source.deviceId, machineId: source.machineId }, message });
    else soil.push({ reporter: { sensorId: source.deviceId, machineId: source.machineId }, message });
  }
  await insertWeatherReadingsOfControllers(tx, weather);
  await upsertSoilReadings(tx, soil);
}
