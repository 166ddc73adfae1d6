/**
 * The coming days of a season (docs/advice.md, "The coming days"): after the measured days, the
 * forecast's days, then the recent days' mean ET0 with no rain, through the season's last day.
 * The balance runs its season curves over them all, so each coming day gets what a measured day
 * gets: the Kc of its own growth stage (Eq. 66, with Eq. 62 and 65 as for the measured days), ETc =
 * Kc · ET0, the 0.2 ET0 rule for rain, and that day's root depth, p, TAW and RAW.
 */
import type { ForecastDay } from './forecast';
import type { NumberSeries, SeasonWeather } from './water-balance';

/** The days whose mean ET0 stands in for the coming days the forecast does not cover. */
export const RECENT_DAYS = 7;

/** The station's days from emergence (element 0 is day 1), and which of them it reported at all. */
export type MeasuredDays = SeasonWeather & { reported: ArrayLike<boolean> };

/**
 * The mean of the last `window` values of a series, over the days the station reported and the
 * values it gave (not NaN); NaN when there are none. A day without readings holds no ET0, and
 * counting it as 0 would push the next irrigation out.
 */
export function recentMean(series: NumberSeries, reported: ArrayLike<boolean>, window = RECENT_DAYS): number {
  let sum = 0;
  let counted = 0;
  for (let index = Math.max(0, series.length - window); index < series.length; index += 1) {
    const value = series[index]!;
    if (!reported[index] || !Number.isFinite(value)) continue;
    sum += value;
    counted += 1;
  }
  return counted === 0 ? Number.NaN : sum / counted;
}

/**
 * The measured days followed by the coming days through season day `seasonDays`: each forecast
 * day's ET0 and rain in turn, then the recent mean ET0 (0 when the station reported none of the
 * recent days: nothing is foreseen, and the answer says the days are missing) and no rain. Wind
 * and humidity, which the forecast does not give, are the recent days' means on every coming day,
 * so a stage that begins ahead has its Kc adjusted for the climate the crop has lately had.
 */
export function withComingDays(
  measured: MeasuredDays,
  coming: readonly ForecastDay[],
  seasonDays: number,
): SeasonWeather {
  const days = measured.referenceEvapotranspiration.length;
  const length = Math.max(days, seasonDays);
  const weather = {
    referenceEvapotranspiration: new Float64Array(length),
    rain: new Float64Array(length),
    wind: new Float64Array(length),
    minHumidity: new Float64Array(length),
  };
  weather.referenceEvapotranspiration.set(measured.referenceEvapotranspiration);
  weather.rain.set(measured.rain);
  weather.wind.set(measured.wind);
  weather.minHumidity.set(measured.minHumidity);
  const recentReference = recentMean(measured.referenceEvapotranspiration, measured.reported);
  weather.referenceEvapotranspiration.fill(Number.isNaN(recentReference) ? 0 : recentReference, days);
  weather.wind.fill(recentMean(measured.wind, measured.reported), days);
  weather.minHumidity.fill(recentMean(measured.minHumidity, measured.reported), days);
  coming.slice(0, length - days).forEach((day, index) => {
    weather.referenceEvapotranspiration[days + index] = day.referenceEvapotranspiration;
    weather.rain[days + index] = day.rain;
  });
  return weather;
}
