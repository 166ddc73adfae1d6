import { useLocale } from './use-locale';

/**
 * A moment (a program's upload, an event) as the app writes it wherever the same thing shows:
 * the day in digits and the time to the minute, "23.11.2026, 14:05" in Polish.
 */
export function useDateTimeFormat(): (timestamp: number) => string {
  const format = new Intl.DateTimeFormat(useLocale(), { dateStyle: 'short', timeStyle: 'short' });
  return (timestamp) => format.format(timestamp);
}
