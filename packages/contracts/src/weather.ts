import { z } from 'zod';

export const WeatherStationSchema = z.strictObject({
  id: z.string(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** °C */
  temperature: z.number(),
  /** Relative humidity, % */
  humidity: z.number(),
  /** Rainfall today, mm */
  rainfall: z.number(),
  /** Wind speed, m/s */
  wind: z.number().optional(),
  /** Rainfall over the last 7 days, mm */
  rainfall_7d: z.number().optional(),
  /** Reference evapotranspiration (FAO-56) over the last 7 days, mm */
  etp_7d: z.number().optional(),
  /** How many of those days etp_7d sums: fewer than 7 while the station has less history */
  etp_days: z.number().int().min(1).max(7).optional(),
  /** When the reading stops being current, ms since the epoch */
  expire_timestamp: z.number().optional(),
});
export type WeatherStation = z.infer<typeof WeatherStationSchema>;

/** Latitude, longitude, soil moisture in % and, when known, the depth in cm. */
export const HumiditySensorSchema = z.union([
  z.tuple([z.number(), z.number(), z.number()]),
  z.tuple([z.number(), z.number(), z.number(), z.number()]),
]);
export type HumiditySensor = z.infer<typeof HumiditySensorSchema>;
