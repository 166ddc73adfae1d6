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
    private readonly place: LatLng,
    seed: number,
    private readonly regionSeed = seed,
  ) {
    this.random = createRandom(seed);
  }

  readingAt(ts: number): WeatherReading {
    const day = dayOfYear(ts);
    const { anomaly, cloudiness } = this.characterAt(ts);
    const showering = this.shower !== null;
    const rain = this.rainUntil(ts, cloudiness);
    const shape = diurnalShape(solarHour(ts, this.place.lng), sunriseHour(this.place.lat, day));
    const season = Math.sin((2 * Math.PI * (day - 105)) / 365);
    const swing = (4 + 2 * season) * (1 - 0.5 * cloudiness);
    const temperature = 8.5 + 10.5 * season + anomaly + swing * shape - (showering ? 2 : 0) + this.noise(0.3);
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
    };
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

  /** The rain since the previous reading; a shower may begin, more likely under cloud. */
  private rainUntil(ts: number, cloudiness: number): number {
    const since = this.previousTs ?? ts;
    this.previousTs = ts;
    let rain = 0;
    if (this.shower) {
      rain = (this.shower.mmPerHour * Math.max(0, Math.min(ts, this.shower.endsAt) - since)) / HOUR_MS;
      if (ts >= this.shower.endsAt) this.shower = null;
    }
    const hours = (ts - since) / HOUR_MS;
    const startChance = 1 - (1 - SHOWER_CHANCE_PER_HOUR * (0.25 + cloudiness)) ** hours;
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
