/**
 * The weather of the autopilot's backtest (bench/autopilot.ts): a seeded season of the Free State's
 * summer around Bothaville, where the demo's pivots stand, hour by hour, and the forecast the
 * server would have read each day: the true days with errors, some rain forecast that does not
 * fall and some rain that falls unforecast.
 */
import type { ForecastDay } from '@pivot/server/src/modules/water-balance';
import { addDays, localInstant } from '@pivot/server/src/time/local-day';
import { seededRandom } from './random';

const HOURS = 24;
/** The forecast's days, today first. */
export const FORECAST_DAYS = 7;
/** A day's ET0 climate, mm/day: 6.6 about the summer solstice (December), 2.0 in June. */
const ET0_MEAN = 4.3;
const ET0_SWING = 2.3;
const SUMMER_SOLSTICE_DAY = 355;
/** The chance of a rain day: about one in four in January, one in ten in October and March. */
const RAIN_CHANCE_MEAN = 0.14;
const RAIN_CHANCE_SWING = 0.12;
const RAINIEST_DAY = 15;
/** A rain day's rain, mm: exponential with this mean (thunderstorms), so about a third give 10 mm or more. */
const RAIN_MEAN_MM = 10;
/** A windy day: its early afternoon blows above 10 m/s. */
const WINDY_DAY_CHANCE = 0.08;
/** Of the rain days, the share the forecast misses; of the dry days, the share it gives rain that does not fall. */
const MISSED_RAIN_SHARE = 0.2;
const FALSE_RAIN_SHARE = 0.05;

export type WeatherDay = {
  date: string;
  referenceEvapotranspiration: number;
  rain: number;
  /** Mean wind at 2 m, m/s, and the least relative humidity, %: the balance's Kc adjustment. */
  wind: number;
  minHumidity: number;
  /** Each hour's rain (mm), wind (m/s) and temperature (°C), hour 0 first. */
  hourlyRain: number[];
  hourlyWind: number[];
  hourlyTemperature: number[];
  /** What the forecast gives for the day, whenever it is read: its rain and ET0. */
  forecastRain: number;
  forecastReference: number;
};

export type SeasonWeather = {
  firstDate: string;
  timeZone: string;
  days: WeatherDay[];
  /** The index of a date in `days`. */
  indexOf(date: string): number;
  /** The forecast read on `date`: that day and the next ones. */
  forecastOn(date: string): ForecastDay[];
  /** The true rain from `from` to `to` (ms), mm: each hour's counted by its share of the span. */
  rainBetween(from: number, to: number): number;
  /** The hour under way at `at`: its wind and temperature. */
  hourAt(at: number): { windMs: number; temperatureC: number };
};

function dayOfYear(date: string): number {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Math.floor((time - Date.UTC(new Date(time).getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** `count` days from `firstDate`, seeded, in the farm's time zone. */
export function seasonWeather(firstDate: string, count: number, seed: number, timeZone: string): SeasonWeather {
  const random = seededRandom(seed);
  const days: WeatherDay[] = [];
  for (let index = 0; index < count; index += 1) {
    const date = addDays(firstDate, index);
    const day = dayOfYear(date);
    const summer = Math.cos((2 * Math.PI * (day - SUMMER_SOLSTICE_DAY)) / 365);
    const rainChance = RAIN_CHANCE_MEAN + RAIN_CHANCE_SWING * Math.cos((2 * Math.PI * (day - RAINIEST_DAY)) / 365);
    const rains = random.next() < rainChance;
    const rain = rains ? Math.round(-RAIN_MEAN_MM * Math.log(1 - random.next()) * 10) / 10 : 0;
    // A thunderstorm in the afternoon or evening, over one to four hours.
    const rainStart = 13 + Math.floor(random.next() * 8);
    const rainHours = 1 + Math.floor(random.next() * 4);
    const windy = random.next() < WINDY_DAY_CHANCE;
    const gale = random.between(10.5, 15);
    const calm = random.between(1.5, 3.5);
    const warmth = 15 + 7 * summer + random.between(-3, 3);
    const hourlyRain: number[] = [];
    const hourlyWind: number[] = [];
    const hourlyTemperature: number[] = [];
    for (let hour = 0; hour < HOURS; hour += 1) {
      const afternoon = Math.max(0, Math.sin(((hour - 6) / 14) * Math.PI));
      const raining = rain > 0 && hour >= rainStart && hour < rainStart + rainHours;
      hourlyRain.push(raining ? rain / rainHours : 0);
      const gusty = windy && hour >= 11 && hour < 18;
      const wind = gusty
        ? gale + random.between(-1, 1)
        : calm + 2.5 * afternoon + (raining ? 3 : 0) + random.between(-0.5, 0.5);
      hourlyWind.push(Math.round(Math.max(0, wind) * 10) / 10);
      hourlyTemperature.push(Math.round((warmth + 7 * (2 * afternoon - 1) - (raining ? 4 : 0)) * 10) / 10);
    }
    const referenceEvapotranspiration =
      (ET0_MEAN + ET0_SWING * summer) * (rain > 0 ? random.between(0.55, 0.8) : random.between(0.9, 1.1));
    // The forecast's error is the day's, whenever it is read: a rain missed, a rain that does not come.
    const errorDraw = random.next();
    const forecastRain =
      rain > 0
        ? errorDraw < MISSED_RAIN_SHARE
          ? 0
          : Math.round(rain * random.between(0.6, 1.4) * 10) / 10
        : errorDraw < FALSE_RAIN_SHARE
          ? Math.round(random.between(8, 20) * 10) / 10
          : 0;
    days.push({
      date,
      referenceEvapotranspiration,
      rain,
      wind: hourlyWind.reduce((sum, value) => sum + value, 0) / HOURS,
      minHumidity: rain > 0 ? random.between(50, 70) : random.between(20, 40),
      hourlyRain,
      hourlyWind,
      hourlyTemperature,
      forecastRain,
      forecastReference: referenceEvapotranspiration * random.between(0.9, 1.1),
    });
  }
  const firstInstant = localInstant(timeZone, firstDate, 0);
  const HOUR_MS = 3_600_000;
  const hourOf = (at: number) => Math.floor((at - firstInstant) / HOUR_MS);
  const indexOf = (date: string) =>
    Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${firstDate}T00:00:00Z`)) / 86_400_000);
  const hourly = (at: number) => {
    const hour = hourOf(at);
    const day = days[Math.min(days.length - 1, Math.max(0, Math.floor(hour / HOURS)))]!;
    return { day, hour: ((hour % HOURS) + HOURS) % HOURS, index: hour };
  };
  return {
    firstDate,
    timeZone,
    days,
    indexOf,
    forecastOn(date) {
      const first = indexOf(date);
      return days.slice(Math.max(0, first), Math.max(0, first + FORECAST_DAYS)).map((day) => ({
        date: day.date,
        referenceEvapotranspiration: day.forecastReference,
        rain: day.forecastRain,
      }));
    },
    rainBetween(from, to) {
      let sum = 0;
      for (let start = firstInstant + hourOf(from) * HOUR_MS; start < to; start += HOUR_MS) {
        const share = (Math.min(to, start + HOUR_MS) - Math.max(from, start)) / HOUR_MS;
        const index = hourOf(start);
        if (index < 0 || index >= days.length * HOURS || share <= 0) continue;
        sum += days[Math.floor(index / HOURS)]!.hourlyRain[index % HOURS]! * share;
      }
      return sum;
    },
    hourAt(at) {
      const { day, hour } = hourly(at);
      return { windMs: day.hourlyWind[hour]!, temperatureC: day.hourlyTemperature[hour]! };
    },
  };
}
