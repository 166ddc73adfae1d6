const UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
] as const satisfies readonly (readonly [Intl.RelativeTimeFormatUnit, number])[];

const formats = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
    formats.set(locale, format);
  }
  return format;
}

/**
 * How long ago `timestamp` was at `now`, in the largest whole unit that fits, in the locale's
 * words: "now", "12 sec. ago", "2 min temu", "yesterday". A time a little ahead of `now` (two
 * clocks never agree exactly) is "now".
 */
export function timeAgo(timestamp: number, now: number, locale: string): string {
  const age = Math.max(0, now - timestamp);
  const [unit, unitMs] = UNITS.find(([, ms]) => age >= ms) ?? UNITS[UNITS.length - 1]!;
  const count = Math.floor(age / unitMs);
  return relativeFormat(locale).format(count === 0 ? 0 : -count, unit);
}
