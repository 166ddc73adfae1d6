/**
 * Daily reference evapotranspiration ET₀ (mm/day) by the FAO-56 Penman-Monteith equation
 * (Allen et al., 1998, eq. 6), from one day of a station's readings.
 */
export type DailyWeather = {
  /** Day of the year, 1–366 */
  dayOfYear: number;
  latitudeDegrees: number;
  elevationM: number;
  minTemperature: number;
  maxTemperature: number;
  minHumidity: number;
  maxHumidity: number;
  /** Mean wind speed at 2 m, m/s; FAO-56 advises 2 m/s when unknown. */
  wind: number | undefined;
  /** Solar radiation over the day, MJ/m²; estimated from the temperature range when unknown. */
  solarRadiation: number | undefined;
};

const SOLAR_CONSTANT = 0.082; // MJ m⁻² min⁻¹
const STEFAN_BOLTZMANN = 4.903e-9; // MJ K⁻⁴ m⁻² day⁻¹
const ALBEDO = 0.23;
const DEFAULT_WIND = 2;
const HARGREAVES_RADIATION_COEFFICIENT = 0.16; // interior locations

/** Saturation vapour pressure at a temperature, kPa (eq. 11). */
function saturationVapourPressure(temperature: number): number {
  return 0.6108 * Math.exp((17.27 * temperature) / (temperature + 237.3));
}

/** Extraterrestrial radiation, MJ/m²/day (eq. 21). */
export function extraterrestrialRadiation(latitudeDegrees: number, dayOfYear: number): number {
  const latitude = (latitudeDegrees * Math.PI) / 180;
  const inverseDistance = 1 + 0.033 * Math.cos(((2 * Math.PI) / 365) * dayOfYear);
  const declination = 0.409 * Math.sin(((2 * Math.PI) / 365) * dayOfYear - 1.39);
  const sunsetAngle = Math.acos(Math.min(1, Math.max(-1, -Math.tan(latitude) * Math.tan(declination))));
  return (
    ((24 * 60) / Math.PI) *
    SOLAR_CONSTANT *
    inverseDistance *
    (sunsetAngle * Math.sin(latitude) * Math.sin(declination) +
      Math.cos(latitude) * Math.cos(declination) * Math.sin(sunsetAngle))
  );
}

export function referenceEvapotranspiration(day: DailyWeather): number {
  const meanTemperature = (day.maxTemperature + day.minTemperature) / 2;
  const wind = day.wind ?? DEFAULT_WIND;
  const pressure = 101.3 * ((293 - 0.0065 * day.elevationM) / 293) ** 5.26;
  const psychrometric = 0.000665 * pressure;
  const slope = (4098 * saturationVapourPressure(meanTemperature)) / (meanTemperature + 237.3) ** 2;
  const saturation = (saturationVapourPressure(day.maxTemperature) + saturationVapourPressure(day.minTemperature)) / 2;
  const actual =
    (saturationVapourPressure(day.minTemperature) * (day.maxHumidity / 100) +
      saturationVapourPressure(day.maxTemperature) * (day.minHumidity / 100)) /
    2;

  const extraterrestrial = extraterrestrialRadiation(day.latitudeDegrees, day.dayOfYear);
  const solar =
    day.solarRadiation ??
    HARGREAVES_RADIATION_COEFFICIENT *
      Math.sqrt(Math.max(0, day.maxTemperature - day.minTemperature)) *
      extraterrestrial;
  const clearSky = (0.75 + 2e-5 * day.elevationM) * extraterrestrial;
  const netShortwave = (1 - ALBEDO) * solar;
  const relativeShortwave = clearSky > 0 ? Math.min(1, solar / clearSky) : 0;
  const netLongwave =
    STEFAN_BOLTZMANN *
    (((day.maxTemperature + 273.16) ** 4 + (day.minTemperature + 273.16) ** 4) / 2) *
    (0.34 - 0.14 * Math.sqrt(actual)) *
    (1.35 * relativeShortwave - 0.35);
  const netRadiation = netShortwave - netLongwave;

  const evapotranspiration =
    (0.408 * slope * netRadiation + psychrometric * (900 / (meanTemperature + 273)) * wind * (saturation - actual)) /
    (slope + psychrometric * (1 + 0.34 * wind));
  return Math.max(0, evapotranspiration);
}
