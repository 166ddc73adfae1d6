import { endpoint } from '../endpoint';
import { StationDaysQuerySchema, StationDaysSchema, StationParamsSchema } from '../station-days';

export const stationDays = endpoint({
  method: 'GET',
  path: '/weather-station/:id/days/',
  params: StationParamsSchema,
  query: StationDaysQuerySchema,
  answer: StationDaysSchema,
  errors: ['invalid_day_range', 'weather_station_not_found'],
  tag: 'weather',
  summary: "A weather station's days, each with its rain and reference evapotranspiration",
});
