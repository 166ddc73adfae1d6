import { expect } from 'vitest';
import { addDays, localMidnight } from '../../src/time/local-day';

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

/**
 * A station's hourly readings of a mild dry June day (14–26 °C, no rain, 2 m/s), as weather rows:
 * `midnight` is the day's local midnight (ms), the station a little north of `centre`.
 */
export function mildDryDay(stationId: string, midnight: number, centre: { lat: number; lng: number }) {
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId,
      machineId: null,
      ts: new Date(midnight + hour * HOUR_MS + 30 * 60_000),
      lat: centre.lat + 0.001,
      lng: centre.lng,
      temperature: 14 + 12 * daylight,
      humidity: 90 - 40 * daylight,
      rain: 0,
      wind: 2,
      solarRadiation: 750 * daylight,
    };
  });
}

/**
 * A day-asking route refuses the day after `today` with 400 `date_in_future`, in Polish and in
 * English as the page asks; `ask` calls the route for a day (YYYY-MM-DD) in a language.
 */
export async function expectTomorrowRefused(
  ask: (date: string, language: string) => Promise<{ status: number; body: unknown }>,
  today: string,
): Promise<void> {
  const polish = await ask(addDays(today, 1), 'pl');
  expect(polish.status).toBe(400);
  expect(polish.body).toEqual({
    code: 'date_in_future',
    message: 'Bilans wodny jest znany najdalej do dziś: wybierz dzisiejszy lub wcześniejszy dzień',
  });
  const english = await ask(addDays(today, 1), 'en');
  expect(english.status).toBe(400);
  expect(english.body).toEqual({
    code: 'date_in_future',
    message: 'The water balance is known up to today: choose today or an earlier day',
  });
}
