import { z } from 'zod';
import { DottedDateSchema } from './common';
import { TopicIdSchema } from './mqtt';

/** A station by the ID its controller reports it under. */
export const StationParamsSchema = z.strictObject({ id: TopicIdSchema });

/** The most days one call for a station's days covers: a season. */
export const MAX_STATION_DAYS = 366;

/**
 * The local calendar days asked for, both included (dd.mm.yyyy, as the watermap's). A range that
 * runs backwards, is longer than MAX_STATION_DAYS or reaches past today is invalid_day_range:
 * "today" is the server's, so only the server judges it.
 */
export const StationDaysQuerySchema = z.strictObject({ start: DottedDateSchema, stop: DottedDateSchema });
export type StationDaysQuery = z.infer<typeof StationDaysQuerySchema>;

/**
 * One local calendar day of a station as the soil-water balance takes it (docs/advice.md,
 * "Weather days"): the day's ET0 and everything it was computed from.
 */
export const StationDaySchema = z.strictObject({
  date: DottedDateSchema,
  /** FAO-56 Penman-Monteith reference evapotranspiration of the day, mm */
  et0: z.number(),
  /** mm */
  rain: z.number(),
  /** Mean wind speed at 2 m of the day's readings, m/s; null when the station reports none (ET0 then takes 2 m/s). */
  wind: z.number().nullable(),
  /** Relative humidity, % */
  minHumidity: z.number(),
  maxHumidity: z.number(),
  /** °C */
  minTemperature: z.number(),
  maxTemperature: z.number(),
  /** Global radiation of the day, MJ/m²; null when the station reports none and ET0 estimates it from the temperatures. */
  solarRadiation: z.number().nullable(),
  /** How many of the station's readings the day is built from. */
  readings: z.number().int().positive(),
});
export type StationDay = z.infer<typeof StationDaySchema>;

/** A station's days over the range asked for, oldest first; days it did not report are absent. */
export const StationDaysSchema = z.strictObject({
  id: z.string(),
  /** Where the station last reported from in the range (else at all): ET0 takes this latitude. */
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** The elevation ET0 takes, m */
  elevation: z.number(),
  /** The time zone whose calendar days these are. */
  timeZone: z.string(),
  days: z.array(StationDaySchema),
});
export type StationDays = z.infer<typeof StationDaysSchema>;
