import { localMidnight } from '../../src/time/local-day';

const HOUR_MS = 3_600_000;

/** yyyy-mm-dd as the API's dd.mm.yyyy. */
export const dotted = (iso: string) => iso.split('-').reverse().join('.');

/** A station's hourly readings of a warm dry day (14–28 °C, no rain, 2 m/s), as weather rows. */
export function warmDryDay(stationId: string, date: string, timeZone: string) {
  const midnight = localMidnight(timeZone, date).getTime();
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId,
      machineId: null,
      ts: new Date(midnight + hour * HOUR_MS + 30 * 60_000),
      lat: 52.301,
      lng: 17.2,
      temperature: 14 + 14 * daylight,
      humidity: 85 - 45 * daylight,
      rain: 0,
      wind: 2,
      solarRadiation: 800 * daylight,
    };
  });
}
