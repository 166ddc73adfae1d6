import { AppError } from '../../errors';
import { localDate, startOfLocalDay } from '../../time/local-day';

/**
 * The balance's calendar days: day numbers (days since 1970-01-01, the arrays' and the kept
 * states' currency), ISO dates (the database's) and dotted dates (the answer's).
 */
const DAY_MS = 86_400_000;

export function dayNumber(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
}

export function isoOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** The day in its year (1 January is 1) of a day number. */
export function dayOfYearOf(day: number): number {
  return day - Date.UTC(yearOf(day), 0, 1) / DAY_MS + 1;
}

/**
 * Refuses a day after today in the farmers' time zone: it has no water or weather yet, and its
 * "balance" would be the forecast's guess passed off as a measurement.
 */
export function refuseDayAfterToday(isoDate: string, timeZone: string, now = Date.now()): void {
  if (isoDate > localDate(timeZone, now)) throw new AppError('date_in_future');
}

/** The last complete day in the farmers' time zone (yesterday there), ISO. */
export function lastCompleteDate(timeZone: string): string {
  return localDate(timeZone, startOfLocalDay(timeZone).getTime() - 1);
}
