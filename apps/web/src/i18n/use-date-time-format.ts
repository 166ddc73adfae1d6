import type { Locale } from '@/config/locales';
import { useLocale } from './use-locale';

/**
 * The region each interface language writes its dates in: day first and a 24-hour clock in both.
 * Plain `en` would be the American month-first, 12-hour style, which reads as a different day to
 * anyone else ("04/07" for the 7th of April).
 */
const DATE_REGION: Record<Locale, string> = { pl: 'pl-PL', en: 'en-GB' };

const DAY = { day: '2-digit', month: '2-digit', year: 'numeric' } as const;
const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

/** How a moment or a day reads in one language, everywhere the app shows one. */
export type DateTimeFormat = {
  /** A moment to the minute: "24.11.2026, 03:37" (pl), "24/11/2026, 03:37" (en). */
  dateTime: (timestamp: number) => string;
  /** A moment to the second, where seconds tell things apart: "24.11.2026, 03:37:05". */
  dateTimeToSecond: (timestamp: number) => string;
  /** A calendar day given as `yyyy-mm-dd` (a subscription's end): "24.11.2026", whatever the time zone. */
  day: (isoDay: string) => string;
  /** The time of day to the second: "03:37:05". */
  time: (timestamp: number) => string;
  /** The time of day to the minute ("03:37") on the day it is now, the moment to the minute on any other. */
  clock: (timestamp: number, now?: number) => string;
};

/** Formatters made once per language and time zone: each costs the browser a lookup of its locale data. */
const formats = new Map<string, DateTimeFormat>();

/** A formatter made on its first use: a page that shows only days never builds the clock's. */
function formatter(region: string, options: Intl.DateTimeFormatOptions): (value: Date | number) => string {
  let made: Intl.DateTimeFormat | undefined;
  return (value) => (made ??= new Intl.DateTimeFormat(region, options)).format(value);
}

/** The app's one date style (docs/web-app.md, "Dates and times"), for a locale. */
export function dateTimeFormat(locale: Locale, timeZone?: string): DateTimeFormat {
  const key = `${locale} ${timeZone ?? ''}`;
  const known = formats.get(key);
  if (known) return known;
  const region = DATE_REGION[locale];
  const toMinute = formatter(region, { ...DAY, ...CLOCK, timeZone });
  const toSecond = formatter(region, { ...DAY, ...CLOCK, second: '2-digit', timeZone });
  const calendarDay = formatter(region, { ...DAY, timeZone: 'UTC' });
  const timeOfDay = formatter(region, { ...CLOCK, second: '2-digit', timeZone });
  const clockOnly = formatter(region, { ...CLOCK, timeZone });
  const dayOnly = formatter(region, { ...DAY, timeZone });
  const made: DateTimeFormat = {
    dateTime: toMinute,
    dateTimeToSecond: toSecond,
    day: (isoDay) => calendarDay(new Date(`${isoDay}T00:00:00Z`)),
    time: timeOfDay,
    clock: (timestamp, now = Date.now()) =>
      dayOnly(timestamp) === dayOnly(now) ? clockOnly(timestamp) : toMinute(timestamp),
  };
  formats.set(key, made);
  return made;
}

/** The app's one date style in the page's language. */
export function useDateTimeFormat(): DateTimeFormat {
  return dateTimeFormat(useLocale());
}
