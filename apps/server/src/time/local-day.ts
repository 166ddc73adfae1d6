/** A formatter is costly to build (most of a call's time): one per zone, kept. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the time zone is ahead of UTC at the given instant. */
function offsetMinutes(timeZone: string, at: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const [, sign, hours, minutes] = match;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in the time zone. */
export function localDate(timeZone: string, instant: Date | number): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The instant the calendar day containing `now` began in the time zone. */
export function startOfLocalDay(timeZone: string, now: Date = new Date()): Date {
  return localMidnight(timeZone, localDate(timeZone, now));
}

/** The instant a calendar date (YYYY-MM-DD) began in the time zone. */
export function localMidnight(timeZone: string, date: string): Date {
  return new Date(localInstant(timeZone, date, 0));
}

/**
 * The instant (ms) of a local time, `minutes` after the start of a calendar date (YYYY-MM-DD) on
 * the wall clock; 1440 is the next day's midnight.
 */
export function localInstant(timeZone: string, date: string, minutes: number): number {
  const wallAsUtc = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const firstGuess = wallAsUtc - offsetMinutes(timeZone, wallAsUtc) * 60_000;
  // Across a daylight-saving change the offset at the wall time differs from the one at the guess.
  return wallAsUtc - offsetMinutes(timeZone, firstGuess) * 60_000;
}

/** The calendar date (YYYY-MM-DD) `days` after the given one. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
