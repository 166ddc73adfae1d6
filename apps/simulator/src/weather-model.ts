import type { WeatherMessage } from '@pivot/contracts';
import type { LatLng } from './geo';
import { type Random, createRandom, mixSeed } from './random';

/**
 * Plausible weather for a Central European farm, reading by reading: a seasonal mean with a
 * day-to-day drift, a diurnal swing (coldest at sunrise, warmest mid-afternoon), humidity moving
 * against temperature, gusty wind, clear-sky radiation dimmed by clouds, and passing showers.
 */
export type WeatherReading = Omit<WeatherMessage, 'v' | 'etp7d'> & { wind: number; solarRadiation: number };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const RADIANS = Math.PI / 180;
const SOLAR_CONSTANT = 1361;
const WARMEST_SOLAR_HOUR = 15;
const MAX_WIND = 8;
const SHOWER_CHANCE_PER_HOUR = 0.04;
/** Wielkopolska's latitude, whose climate the model's figures are for. */
const HOME_LATITUDE = 52;
/** Its mean yearly temperature and the swing of the monthly means about it, °C. */
const HOME_MEAN_TEMPERATURE = 8.5;
const HOME_SEASONAL_SWING = 10.5;
/**
 * Nearer the equator the year is warmer and its seasons milder: per degree of latitude, the mean
 * rises by 0.4 °C and the swing narrows by 0.14 °C (Poznań 8.5 ± 10.5, the Free State's
 * Bothaville at 27° S about 18.5 ± 7).
 */
const MEAN_PER_DEGREE = 0.4;
const SWING_PER_DEGREE = 0.14;
/** Showers in the height of summer are this much more likely than the mean at home, and less likely in winter. */
const HOME_RAIN_SEASONALITY = 0.5;
const RAIN_SEASONALITY_PER_DEGREE = 0.018;
const MOST_RAIN_SEASONALITY = 0.95;

export function dayOfYear(ts: number): number {
  const date = new Date(ts);
  return Math.floor((ts - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** Local solar time in hours [0, 24): UTC shifted by longitude, ignoring the equation of time. */
export function solarHour(ts: number, lng: number): number {
  const utcHours = (ts % DAY_MS) / HOUR_MS;
  return (((utcHours + lng / 15) % 24) + 24) % 24;
}

function declination(day: number): number {
  return 23.44 * RADIANS * Math.sin((2 * Math.PI * (284 + day)) / 365);
}

/** Solar hour of sunrise; 0 in polar day and 12 in polar night. */
export function sunriseHour(lat: number, day: number): number {
  const cosHourAngle = -Math.tan(lat * RADIANS) * Math.tan(declination(day));
  return 12 - Math.acos(Math.min(1, Math.max(-1, cosHourAngle))) / RADIANS / 15;
}

/** Global radiation on a horizontal surface under a clear sky, W/m² (0 with the sun below the horizon). */
export function clearSkyRadiation(place: LatLng, ts: number): number {
  const day = dayOfYear(ts);
  const hourAngle = (solarHour(ts, place.lng) - 12) * 15 * RADIANS;
  const lat = place.lat * RADIANS;
  const dec = declination(day);
  const sinElevation = Math.sin(lat) * Math.sin(dec) + Math.cos(lat) * Math.cos(dec) * Math.cos(hourAngle);
  if (sinElevation <= 0) return 0;
  const extraterrestrial = SOLAR_CONSTANT * (1 + 0.033 * Math.cos((2 * Math.PI * day) / 365));
  // Meinel's air-mass attenuation, plus a tenth for the diffuse light of a clear sky.
  const transmitted = 0.7 ** ((1 / sinElevation) ** 0.678);
  return 1.1 * extraterrestrial * sinElevation * transmitted;
}

/** −1 at sunrise rising to +1 mid-afternoon, then falling back to −1 at the next sunrise. */
export function diurnalShape(hour: number, sunrise: number): number {
  const warming = WARMEST_SOLAR_HOUR - sunrise;
  if (hour >= sunrise && hour < WARMEST_SOLAR_HOUR) return -Math.cos((Math.PI * (hour - sunrise)) / warming);
  const sincePeak = (hour - WARMEST_SOLAR_HOUR + 24) % 24;
  return Math.cos((Math.PI * sincePeak) / (24 - warming));
}

type DayCharacter = { anomaly: number; cloudiness: number };
type Shower = { endsAt: number; mmPerHour: number };

export class WeatherModel {
  private readonly random: Random;
  private previousTs: number | null = null;
  private shower: Shower | null = null;
  private wind = 2;

  /**
   * The seed drives this station's own draws (noise, wind, showers); the region seed sets each
   * day's warmth and cloud, so the stations of one region agree on what kind of day it is.
   */
  constructor(
    /** Where the station stands; its elevation (m), when given, goes into every reading. */
    private readonly place: LatLng & { elevation?: number },
    seed: number,
    private readonly regionSeed = seed,
  ) {
    this.random = createRandom(seed);
  }

  readingAt(ts: number): WeatherReading {
    const day = dayOfYear(ts);
    const { anomaly, cloudiness } = this.characterAt(ts);
    const showering = this.shower !== null;
    const rain = this.rainUntil(ts, cloudiness, this.rainySeason(day));
    const shape = diurnalShape(solarHour(ts, this.place.lng), sunriseHour(this.place.lat, day));
    const season = this.season(day);
    const swing = (4 + 2 * season) * (1 - 0.5 * cloudiness);
    const towardsEquator = HOME_LATITUDE - Math.abs(this.place.lat);
    const mean = HOME_MEAN_TEMPERATURE + MEAN_PER_DEGREE * towardsEquator;
    const seasonalSwing = HOME_SEASONAL_SWING - SWING_PER_DEGREE * towardsEquator;
    const temperature = mean + seasonalSwing * season + anomaly + swing * shape - (showering ? 2 : 0) + this.noise(0.3);
    const dryness = 18 * shape * (1 - 0.5 * cloudiness);
    const humidity = Math.max(showering ? 92 : 15, Math.min(100, 72 - dryness + 15 * cloudiness + this.noise(3)));
    const sunlight = clearSkyRadiation(this.place, ts) * (1 - 0.75 * cloudiness) * (showering ? 0.3 : 1);
    const windTarget = 2 + 2 * Math.max(0, shape) + 3 * cloudiness;
    this.wind = Math.max(0, Math.min(MAX_WIND, this.wind + 0.3 * (windTarget - this.wind) + this.noise(0.8)));
    return {
      ts,
      lat: this.place.lat,
      lng: this.place.lng,
      temperature: round1(temperature),
      humidity: Math.round(humidity),
      rain: round1(rain),
      wind: round1(this.wind),
      solarRadiation: Math.round(sunlight),
      ...(this.place.elevation === undefined ? {} : { elevation: this.place.elevation }),
    };
  }

  /** −1 in the depth of winter to +1 at the height of summer; south of the equator summer comes at the other end of the year. */
  private season(day: number): number {
    return Math.sign(this.place.lat || 1) * Math.sin((2 * Math.PI * (day - 105)) / 365);
  }

  /**
   * How much more likely a shower is than the year's mean: summer is the rainy season, the more so
   * nearer the tropics (Poznań's July brings twice its February's rain; the Free State's highveld
   * has summer thunderstorms and a dry winter).
   */
  private rainySeason(day: number): number {
    const towardsEquator = HOME_LATITUDE - Math.abs(this.place.lat);
    const seasonality = Math.min(
      MOST_RAIN_SEASONALITY,
      HOME_RAIN_SEASONALITY + RAIN_SEASONALITY_PER_DEGREE * towardsEquator,
    );
    return 1 + seasonality * this.season(day);
  }

  /** Each day has its own warmth and cloud, blended into the next so nothing jumps at midnight. */
  private characterAt(ts: number): DayCharacter {
    const dayNumber = Math.floor(ts / DAY_MS);
    const share = ts / DAY_MS - dayNumber;
    const today = this.dayCharacter(dayNumber);
    const tomorrow = this.dayCharacter(dayNumber + 1);
    return {
      anomaly: today.anomaly + (tomorrow.anomaly - today.anomaly) * share,
      cloudiness: today.cloudiness + (tomorrow.cloudiness - today.cloudiness) * share,
    };
  }

  private dayCharacter(dayNumber: number): DayCharacter {
    const random = createRandom(mixSeed(this.regionSeed, dayNumber));
    return { anomaly: random.between(-3, 3), cloudiness: random.next() ** 1.5 };
  }

  /** The rain since the previous reading; a shower may begin, more likely under cloud and in the rainy season. */
  private rainUntil(ts: number, cloudiness: number, rainySeason: number): number {
    const since = this.previousTs ?? ts;
    this.previousTs = ts;
    let rain = 0;
    if (this.shower) {
      rain = (this.shower.mmPerHour * Math.max(0, Math.min(ts, this.shower.endsAt) - since)) / HOUR_MS;
      if (ts >= this.shower.endsAt) this.shower = null;
    }
    const hours = (ts - since) / HOUR_MS;
    const startChance = 1 - (1 - SHOWER_CHANCE_PER_HOUR * (0.25 + cloudiness) * rainySeason) ** hours;
    if (!this.shower && this.random.chance(startChance)) {
      this.shower = { endsAt: ts + this.random.between(0.3, 2) * HOUR_MS, mmPerHour: this.random.between(0.5, 6) };
    }
    return rain;
  }

  private noise(spread: number): number {
    return this.random.between(-spread, spread);
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
