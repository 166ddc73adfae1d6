import { doublePrecision, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Every weather station reading, for today's and the last 7 days' rainfall and ETP. */
export const weatherReadings = pgTable(
  'weather_readings',
  {
    stationId: text('station_id').notNull(),
    /** The controller that speaks for the station; null for readings stored before controllers were. */
    machineId: text('machine_id'),
    ts: timestamp('ts', { withTimezone: true, precision: 3 }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    temperature: doublePrecision('temperature').notNull(),
    humidity: doublePrecision('humidity').notNull(),
    /** mm since the station's previous reading */
    rain: doublePrecision('rain').notNull(),
    wind: doublePrecision('wind'),
    solarRadiation: doublePrecision('solar_radiation'),
    /** ETP of the last 7 days as the station computed it, when it does. */
    etp7d: doublePrecision('etp_7d'),
    /** Metres above sea level, as the station reported it; null when it does not say. */
    elevation: doublePrecision('elevation'),
  },
  (table) => [primaryKey({ columns: [table.stationId, table.ts] }), index('weather_readings_ts_idx').on(table.ts)],
);

/** The latest reading of each soil-moisture sensor. */
export const soilSensors = pgTable('soil_sensors', {
  sensorId: text('sensor_id').primaryKey(),
  /** The controller that speaks for the sensor; only its readings replace the stored one. */
  machineId: text('machine_id'),
  ts: timestamp('ts', { withTimezone: true, precision: 3 }).notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  moisture: doublePrecision('moisture').notNull(),
  depth: doublePrecision('depth'),
});

/**
 * Every accepted soil-moisture reading, for the water balance's probes (docs/advice.md, "Probes"):
 * a probe's reading at or before the end of a past day. `soil_sensors` keeps only the newest.
 */
export const soilReadings = pgTable(
  'soil_readings',
  {
    sensorId: text('sensor_id').notNull(),
    machineId: text('machine_id'),
    ts: timestamp('ts', { withTimezone: true, precision: 3 }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    /** Volumetric water content, % */
    moisture: doublePrecision('moisture').notNull(),
    /** Probe depth, cm */
    depth: doublePrecision('depth'),
  },
  (table) => [primaryKey({ columns: [table.sensorId, table.ts] }), index('soil_readings_ts_idx').on(table.ts)],
);
