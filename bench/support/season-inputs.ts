import type { Database } from '@pivot/server/src/db/client';
import { dayOfYear } from '@pivot/server/src/modules/watermap/day-of-year';
import { waterCellYears } from '@pivot/server/src/modules/watermap/watermap.table';

/**
 * What a season's water balance reads besides the crop, made up for the benchmarks of the advice
 * (bench/water-balance.ts, bench/web-season-chart.ts): a station's hourly weather and the water
 * grid's passes, stored straight in the database.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const STEP_M = 10;
const INSERT_CHUNK = 1000;

/** A station's hourly reading, without the station. */
export type HourlyWeather = {
  ts: number;
  temperature: number;
  humidity: number;
  rain: number;
  wind: number;
  solarRadiation: number;
};

/**
 * The hourly weather of day `dayIndex` of a summer season of `seasonDays` from `firstDay` (its UTC
 * midnight; local time about UTC+2): warmest mid-season, 8 mm of rain at dawn every ninth day.
 */
export function summerDayWeather(firstDay: number, dayIndex: number, seasonDays: number): HourlyWeather[] {
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      ts: firstDay - 2 * HOUR_MS + dayIndex * DAY_MS + hour * HOUR_MS,
      temperature: 10 + 8 * Math.sin((dayIndex / seasonDays) * Math.PI) + 10 * daylight,
      humidity: 90 - 40 * daylight,
      rain: hour === 6 && dayIndex % 9 === 0 ? 8 : 0,
      wind: 2 + (hour % 3) * 0.5,
      solarRadiation: 700 * daylight,
    };
  });
}

/** A machine's pass: the day (its UTC midnight) and the water it gave every cell, mm. */
export type Pass = { day: number; mm: number };

/** A pass of `mm` every `everyDays` days of a season of `seasonDays` from `firstDay` (its UTC midnight). */
export function passesEvery(firstDay: number, seasonDays: number, everyDays: number, mm: number): Pass[] {
  return Array.from({ length: Math.ceil(seasonDays / everyDays) }, (_, pass) => ({
    day: firstDay + pass * everyDays * DAY_MS,
    mm,
  }));
}

/**
 * The water grid's rows for every cell a machine's arm reaches (10 m cells, a row per cell and
 * year), as the water accounting would have written them after the passes. Answers the cells.
 */
export async function storePasses(
  db: Database,
  machineId: string,
  armLength: number,
  passes: readonly Pass[],
): Promise<number> {
  const years = new Map<number, { days: number[]; mm: number[] }>();
  for (const pass of passes) {
    const { year, day } = dayOfYear(new Date(pass.day));
    const days = years.get(year) ?? { days: [], mm: [] };
    days.days.push(day);
    days.mm.push(pass.mm);
    years.set(year, days);
  }
  const reach = Math.ceil(armLength / STEP_M) + 1;
  let rows: (typeof waterCellYears.$inferInsert)[] = [];
  let cells = 0;
  for (let x = -reach; x < reach; x += 1) {
    for (let y = -reach; y < reach; y += 1) {
      if (Math.hypot((x + 0.5) * STEP_M, (y + 0.5) * STEP_M) >= armLength + STEP_M / 2) continue;
      for (const [year, { days, mm }] of years) rows.push({ machineId, year, x, y, days, mm });
      cells += 1;
      if (rows.length >= INSERT_CHUNK) {
        await db.insert(waterCellYears).values(rows);
        rows = [];
      }
    }
  }
  if (rows.length > 0) await db.insert(waterCellYears).values(rows);
  return cells;
}
