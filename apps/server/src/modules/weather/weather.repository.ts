import type { SoilMessage, WeatherMessage } from '@pivot/contracts';
import { type AnyColumn, type Placeholder, and, between, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { soilReadings, soilSensors, weatherReadings } from './weather.table';

/** Who reported a reading: the station or sensor, and the controller that speaks for it. */
type Reporter<K extends string> = Record<K, string> & { machineId: string };

/** A station's or sensor's reading as its controller reported it. */
export type ReportedReading<K extends string, Message> = { reporter: Reporter<K>; message: Message };

/**
 * Stores stations' readings, each unless its station is another controller's: the first to
 * report it decides, whether stored before or earlier in the same batch. A reading already
 * stored is skipped. One statement whatever the batch's size, each column an array parameter.
 */
export async function insertWeatherReadingsOfControllers(
  db: Queryable,
  readings: readonly ReportedReading<'stationId', WeatherMessage>[],
): Promise<void> {
  if (readings.length === 0) return;
  const rows = readings.map(({ reporter, message }) => readingRow(reporter, message));
  const column = <T>(value: (row: (typeof rows)[number]) => T) => sql.param(rows.map(value));
  await db.execute(sql`
    with batch as (
      select * from unnest(
        ${column((row) => row.stationId)}::text[],
        ${column((row) => row.machineId)}::text[],
        ${column((row) => row.ts)}::timestamptz[],
        ${column((row) => row.lat)}::float8[],
        ${column((row) => row.lng)}::float8[],
        ${column((row) => row.temperature)}::float8[],
        ${column((row) => row.humidity)}::float8[],
        ${column((row) => row.rain)}::float8[],
        ${column((row) => row.wind ?? null)}::float8[],
        ${column((row) => row.solarRadiation ?? null)}::float8[],
        ${column((row) => row.etp7d ?? null)}::float8[],
        ${column((row) => row.elevation ?? null)}::float8[]
      ) with ordinality as reading
        (station_id, machine_id, ts, lat, lng, temperature, humidity, rain, wind, solar_radiation, etp_7d, elevation,
         position)
    ),
    first_in_batch as (
      select distinct on (station_id) station_id, machine_id from batch order by station_id, position
    )
    insert into ${weatherReadings}
      (station_id, machine_id, ts, lat, lng, temperature, humidity, rain, wind, solar_radiation, etp_7d, elevation)
    select batch.station_id, batch.machine_id, batch.ts, batch.lat, batch.lng, batch.temperature, batch.humidity,
      batch.rain, batch.wind, batch.solar_radiation, batch.etp_7d, batch.elevation
    from batch join first_in_batch using (station_id)
    where not exists (
        select 1 from ${weatherReadings} stored
        where stored.station_id = batch.station_id and stored.machine_id <> batch.machine_id)
      and (first_in_batch.machine_id = batch.machine_id or exists (
        select 1 from ${weatherReadings} stored
        where stored.station_id = batch.station_id and stored.machine_id = batch.machine_id))
    on conflict do nothing`);
}

/** A station's message as its row. */
function readingRow(
  { stationId, machineId }: Reporter<'stationId'>,
  message: Omit<WeatherMessage, 'v'>,
): typeof weatherReadings.$inferInsert {
  return {
    stationId,
    machineId,
    ts: new Date(message.ts),
    lat: message.lat,
    lng: message.lng,
    temperature: message.temperature,
    humidity: message.humidity,
    rain: message.rain,
    wind: message.wind ?? null,
    solarRadiation: message.solarRadiation ?? null,
    etp7d: message.etp7d ?? null,
    elevation: message.elevation ?? null,
  };
}

/**
 * Keeps each sensor's newest reading and its history, of the readings its controller reported:
 * the first controller to report a sensor decides (whether stored before or earlier in the same
 * batch); another's readings, and an older one arriving late, change nothing of the newest. One
 * statement whatever the batch's size, each column an array parameter.
 */
export async function upsertSoilReadings(
  db: Queryable,
  readings: readonly ReportedReading<'sensorId', SoilMessage>[],
): Promise<void> {
  if (readings.length === 0) return;
  const column = <T>(value: (reading: (typeof readings)[number]) => T) => sql.param(readings.map(value));
  await db.execute(sql`
    with batch as (
      select * from unnest(
        ${column(({ reporter }) => reporter.sensorId)}::text[],
        ${column(({ reporter }) => reporter.machineId)}::text[],
        ${column(({ message }) => new Date(message.ts))}::timestamptz[],
        ${column(({ message }) => message.lat)}::float8[],
        ${column(({ message }) => message.lng)}::float8[],
        ${column(({ message }) => message.moisture)}::float8[],
        ${column(({ message }) => message.depth ?? null)}::float8[]
      ) with ordinality as reading (sensor_id, machine_id, ts, lat, lng, moisture, depth, position)
    ),
    -- A stored sensor's controller (null for one stored before controllers were: none takes it), or the batch's first.
    owner as (
      select distinct on (batch.sensor_id) batch.sensor_id,
        case when stored.sensor_id is null then batch.machine_id else stored.machine_id end as machine_id
      from batch left join ${soilSensors} stored on stored.sensor_id = batch.sensor_id
      order by batch.sensor_id, batch.position
    ),
    owned as (
      select batch.* from batch join owner on owner.sensor_id = batch.sensor_id and owner.machine_id = batch.machine_id
    ),
    newest as (
      insert into ${soilSensors} as latest (sensor_id, machine_id, ts, lat, lng, moisture, depth)
      select distinct on (sensor_id) sensor_id, machine_id, ts, lat, lng, moisture, depth
      from owned order by sensor_id, ts desc
      on conflict (sensor_id) do update set
        machine_id = excluded.machine_id, ts = excluded.ts, lat = excluded.lat, lng = excluded.lng,
        moisture = excluded.moisture, depth = excluded.depth
      where latest.ts < excluded.ts and latest.machine_id is not distinct from excluded.machine_id
    )
    insert into ${soilReadings} (sensor_id, machine_id, ts, lat, lng, moisture, depth)
    select sensor_id, machine_id, ts, lat, lng, moisture, depth from owned
    on conflict do nothing`);
}

export type SoilReading = Omit<typeof soilReadings.$inferSelect, 'machineId'>;

/** A probe's reading as the water balance takes it. */
const soilReadingColumns = {
  sensorId: soilReadings.sensorId,
  ts: soilReadings.ts,
  lat: soilReadings.lat,
  lng: soilReadings.lng,
  moisture: soilReadings.moisture,
  depth: soilReadings.depth,
};

/**
 * Each sensor's newest reading from inside the area in [from, to]: a probe's reading at or before
 * the end of a day (`to`), with its position and time; none older than `from`.
 */
export async function soilReadingsAtOrBefore(db: Queryable, area: Area, from: Date, to: Date): Promise<SoilReading[]> {
  return db
    .selectDistinctOn([soilReadings.sensorId], soilReadingColumns)
    .from(soilReadings)
    .where(and(between(soilReadings.ts, from, to), insideArea(soilReadings.lat, soilReadings.lng, area)))
    .orderBy(soilReadings.sensorId, sql`${soilReadings.ts} desc`);
}

/**
 * Each sensor's newest reading of each calendar day (in `timeZone`) from inside the area in
 * [from, to]: what the water balance corrects each past day by (docs/advice.md, "Probes"), by
 * sensor and time. The newest times are found by grouping and their rows read by the primary key,
 * not by sorting every reading of the season (DISTINCT ON), which on PGlite cost the most.
 */
export async function dailySoilReadings(
  db: Queryable,
  area: Area,
  from: Date,
  to: Date,
  timeZone: string,
): Promise<SoilReading[]> {
  const newest = db
    .select({ sensorId: soilReadings.sensorId, ts: sql<Date>`max(${soilReadings.ts})`.as('newest_ts') })
    .from(soilReadings)
    .where(and(between(soilReadings.ts, from, to), insideArea(soilReadings.lat, soilReadings.lng, area)))
    .groupBy(soilReadings.sensorId, sql`(${soilReadings.ts} at time zone ${timeZone})::date`)
    .as('newest');
  return db
    .select(soilReadingColumns)
    .from(soilReadings)
    .innerJoin(newest, and(eq(soilReadings.sensorId, newest.sensorId), eq(soilReadings.ts, newest.ts)))
    .orderBy(soilReadings.sensorId, soilReadings.ts);
}

/** A latitude and longitude range; in a prepared query, placeholders for one. */
export type Area<Bound = number> = { minLat: Bound; maxLat: Bound; minLng: Bound; maxLng: Bound };
type QueryValue<Value> = Value | Placeholder;

/** Rows whose position lies in the area. */
function insideArea(lat: AnyColumn, lng: AnyColumn, area: Area<QueryValue<number>>) {
  return and(between(lat, area.minLat, area.maxLat), between(lng, area.minLng, area.maxLng));
}

export type LatestReading = typeof weatherReadings.$inferSelect;

/** The newest reading since `since` of each station inside the area. */
export async function latestReadingsIn(db: Queryable, area: Area, since: Date): Promise<LatestReading[]> {
  return db
    .selectDistinctOn([weatherReadings.stationId])
    .from(weatherReadings)
    .where(and(gte(weatherReadings.ts, since), insideArea(weatherReadings.lat, weatherReadings.lng, area)))
    .orderBy(weatherReadings.stationId, sql`${weatherReadings.ts} desc`);
}

/** Rain per station since each of two moments: the start of today and seven days before it. */
export async function rainSince(
  db: Queryable,
  stationIds: string[],
  today: Date,
  weekAgo: Date,
): Promise<Map<string, { today: number; week: number }>> {
  if (stationIds.length === 0) return new Map();
  const rows = await db
    .select({
      stationId: weatherReadings.stationId,
      today: sql<number>`coalesce(sum(${weatherReadings.rain}) filter (where ${weatherReadings.ts} >= ${today.toISOString()}), 0)::float8`,
      week: sql<number>`coalesce(sum(${weatherReadings.rain}), 0)::float8`,
    })
    .from(weatherReadings)
    .where(and(inArray(weatherReadings.stationId, stationIds), gte(weatherReadings.ts, weekAgo)))
    .groupBy(weatherReadings.stationId);
  return new Map(rows.map((row) => [row.stationId, { today: Number(row.today), week: Number(row.week) }]));
}

export type DailySummary = {
  stationId: string;
  day: string;
  minTemperature: number;
  maxTemperature: number;
  minHumidity: number;
  maxHumidity: number;
  wind: number | null;
  /** Mean global radiation over the day's readings, W/m² */
  solarRadiation: number | null;
  /** mm over the day's readings */
  rain: number;
  /** How many readings the day is built from. */
  readings: number;
};

/** One row per station and local calendar day in [from, to): the figures FAO-56 needs. */
export async function dailySummaries(
  db: Queryable,
  stationIds: string[],
  from: Date,
  to: Date,
  timeZone: string,
): Promise<DailySummary[]> {
  if (stationIds.length === 0) return [];
  const day = sql<string>`to_char(${weatherReadings.ts} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      stationId: weatherReadings.stationId,
      day,
      minTemperature: sql<number>`min(${weatherReadings.temperature})`,
      maxTemperature: sql<number>`max(${weatherReadings.temperature})`,
      minHumidity: sql<number>`min(${weatherReadings.humidity})`,
      maxHumidity: sql<number>`max(${weatherReadings.humidity})`,
      wind: sql<number | null>`avg(${weatherReadings.wind})`,
      solarRadiation: sql<number | null>`avg(${weatherReadings.solarRadiation})`,
      rain: sql<number>`sum(${weatherReadings.rain})`,
      readings: sql<number>`count(*)`,
    })
    .from(weatherReadings)
    .where(
      and(
        inArray(weatherReadings.stationId, stationIds),
        gte(weatherReadings.ts, from),
        sql`${weatherReadings.ts} < ${to.toISOString()}`,
      ),
    )
    // By position: the day expression's time zone is a parameter, which PostgreSQL cannot match to the select list.
    .groupBy(sql`1`, sql`2`);
  return rows.map((row) => ({
    ...row,
    minTemperature: Number(row.minTemperature),
    maxTemperature: Number(row.maxTemperature),
    minHumidity: Number(row.minHumidity),
    maxHumidity: Number(row.maxHumidity),
    wind: row.wind === null ? null : Number(row.wind),
    solarRadiation: row.solarRadiation === null ? null : Number(row.solarRadiation),
    rain: Number(row.rain),
    readings: Number(row.readings),
  }));
}

/** Where a station stands as its reading says: its position, and its elevation (m) when it reports one. */
export type StationPlace = { lat: number; lng: number; elevation: number | null };

/** Where the station last reported from, in [from, to) when given; null when it reported nothing then. */
export async function lastStationPosition(
  db: Queryable,
  stationId: string,
  range?: { from: Date; to: Date },
): Promise<StationPlace | null> {
  const [row] = await db
    .select({ lat: weatherReadings.lat, lng: weatherReadings.lng, elevation: weatherReadings.elevation })
    .from(weatherReadings)
    .where(
      and(
        eq(weatherReadings.stationId, stationId),
        range && gte(weatherReadings.ts, range.from),
        range && sql`${weatherReadings.ts} < ${range.to.toISOString()}`,
      ),
    )
    .orderBy(sql`${weatherReadings.ts} desc`)
    .limit(1);
  return row ?? null;
}

/**
 * Each station that reported from inside the area in [from, to), at its last position there, by
 * station id. Each station's newest time is found by grouping, and its row read by the primary
 * key: DISTINCT ON sorted every reading of the range first, and on PGlite that sort cost 20–45 ms
 * of every water balance (a season's 4,320 hourly readings; reading them, 4 ms).
 */
export async function stationsReportingIn(
  db: Queryable,
  area: Area,
  from: Date,
  to: Date,
): Promise<({ stationId: string } & StationPlace)[]> {
  const newest = db
    .select({
      stationId: weatherReadings.stationId,
      ts: sql<Date>`max(${weatherReadings.ts})`.as('newest_ts'),
    })
    .from(weatherReadings)
    .where(
      and(
        gte(weatherReadings.ts, from),
        sql`${weatherReadings.ts} < ${to.toISOString()}`,
        insideArea(weatherReadings.lat, weatherReadings.lng, area),
      ),
    )
    .groupBy(weatherReadings.stationId)
    .as('newest');
  return db
    .select({
      stationId: weatherReadings.stationId,
      lat: weatherReadings.lat,
      lng: weatherReadings.lng,
      elevation: weatherReadings.elevation,
    })
    .from(weatherReadings)
    .innerJoin(newest, and(eq(weatherReadings.stationId, newest.stationId), eq(weatherReadings.ts, newest.ts)))
    .orderBy(weatherReadings.stationId);
}

export type SoilSensorRow = typeof soilSensors.$inferSelect;

export async function soilSensorsIn(db: Queryable, area: Area, since: Date): Promise<SoilSensorRow[]> {
  return db
    .select()
    .from(soilSensors)
    .where(and(gte(soilSensors.ts, since), insideArea(soilSensors.lat, soilSensors.lng, area)));
}

/** What another module's query can select: the sensors `soilSensorsIn` gives, as one JSON array. */
export function soilSensorsInColumn(area: Area<QueryValue<number>>, since: QueryValue<Date>) {
  return sql<
    Pick<SoilSensorRow, 'sensorId' | 'lat' | 'lng' | 'moisture' | 'depth'>[]
  >`(select coalesce(json_agg(json_build_object(
    'sensorId', ${soilSensors.sensorId}, 'lat', ${soilSensors.lat}, 'lng', ${soilSensors.lng},
    'moisture', ${soilSensors.moisture}, 'depth', ${soilSensors.depth})), '[]') from ${soilSensors}
    where ${and(gte(soilSensors.ts, since), insideArea(soilSensors.lat, soilSensors.lng, area))})`;
}

/**
 * What another module's query can select: the time, in ms, of the newest reading since `since`
 * inside the area, of any station: the newest `latestReadingsIn` gives.
 */
export function latestReadingTimeColumn(area: Area<QueryValue<number>>, since: QueryValue<Date>) {
  return sql<
    number | null
  >`(select (extract(epoch from max(${weatherReadings.ts})) * 1000)::float8 from ${weatherReadings}
    where ${and(gte(weatherReadings.ts, since), insideArea(weatherReadings.lat, weatherReadings.lng, area))})`.mapWith(
    (value) => (value === null ? null : Number(value)),
  );
}

/** The time of a probe's first reading in its history; null when it has none. */
export async function firstSoilReadingTime(db: Queryable, sensorId: string): Promise<Date | null> {
  const [row] = await db
    .select({ ts: sql<string | null>`min(${soilReadings.ts})` })
    .from(soilReadings)
    .where(eq(soilReadings.sensorId, sensorId));
  return row?.ts ? new Date(row.ts) : null;
}

/** The time of a station's first stored reading; null when it has none. */
export async function firstReadingTime(db: Queryable, stationId: string): Promise<Date | null> {
  const [row] = await db
    .select({ ts: sql<string | null>`min(${weatherReadings.ts})` })
    .from(weatherReadings)
    .where(eq(weatherReadings.stationId, stationId));
  return row?.ts ? new Date(row.ts) : null;
}

/** Stores many readings of one station at once (a station's past, as the demo gives it); none already stored changes. */
export async function insertWeatherReadings(
  db: Queryable,
  reporter: Reporter<'stationId'>,
  messages: readonly Omit<WeatherMessage, 'v'>[],
): Promise<void> {
  const BATCH = 500;
  for (let first = 0; first < messages.length; first += BATCH) {
    await db
      .insert(weatherReadings)
      .values(messages.slice(first, first + BATCH).map((message) => readingRow(reporter, message)))
      .onConflictDoNothing();
  }
}

/**
 * How many readings a station has from `from` up to `to` (excluded), and the last one's time: its
 * readings are only ever added (a duplicate is dropped), so the same two mean the same readings.
 * The primary key's index answers it alone.
 */
export async function readingsCount(
  db: Queryable,
  stationId: string,
  from: Date,
  to: Date,
): Promise<{ count: number; last: number | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`, last: sql<Date | string | null>`max(${weatherReadings.ts})` })
    .from(weatherReadings)
    .where(
      and(
        eq(weatherReadings.stationId, stationId),
        gte(weatherReadings.ts, from),
        sql`${weatherReadings.ts} < ${to.toISOString()}`,
      ),
    );
  return { count: Number(row?.count ?? 0), last: row?.last ? new Date(row.last).getTime() : null };
}

/** How many probes' readings lie inside the area in [from, to], and the newest one's time (ms). */
export async function soilReadingsCount(
  db: Queryable,
  area: Area,
  from: Date,
  to: Date,
): Promise<{ count: number; last: number | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`, last: sql<Date | string | null>`max(${soilReadings.ts})` })
    .from(soilReadings)
    .where(and(between(soilReadings.ts, from, to), insideArea(soilReadings.lat, soilReadings.lng, area)));
  return { count: Number(row?.count ?? 0), last: row?.last ? new Date(row.last).getTime() : null };
}

/**
 * Deletes stations' readings and probes' history older than `before`, at most `limit` rows of
 * each table: a large fleet's hourly share is deleted in short statements that never hold
 * ingestion up. The number deleted, of both.
 */
export async function deleteReadingsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  let deleted = 0;
  for (const table of [weatherReadings, soilReadings]) {
    const oldest = db
      .select({ ctid: sql`ctid` })
      .from(table)
      .where(lt(table.ts, before))
      .limit(limit);
    const rows = await db
      .delete(table)
      .where(sql`ctid in (${oldest})`)
      .returning({ ts: table.ts });
    deleted += rows.length;
  }
  return deleted;
}
