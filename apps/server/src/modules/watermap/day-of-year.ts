/** A calendar day as the water grid keys it: the year, and the day in it (1 January is 1). */
export type DayOfYear = { year: number; day: number };

const DAY_MS = 86_400_000;

/** The day of the year of a calendar date given as its UTC midnight. */
export function dayOfYear(date: Date): DayOfYear {
  const year = date.getUTCFullYear();
  return { year, day: (date.getTime() - Date.UTC(year, 0, 1)) / DAY_MS + 1 };
}
