/**
 * Dates for the date picker and the pages that read or write one (a machine page's history in its
 * address): local days, their formats and ranges; times are always the start of the day. The
 * calendar's own arithmetic is calendar-days.ts, which comes with the calendar.
 */

export type DateRange = { start: Date; end: Date };

/** docs/product.md#limits: what the picker writes unless told otherwise. */
export const DEFAULT_OUTPUT_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** docs/product.md#validation: how the form field writes a date, and what goes between the two dates of a range. */
export const FIELD_FORMAT = 'DD.MM.YYYY';
export const RANGE_SEPARATOR = ' - ';

export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Writes a date with the tokens YYYY, MM, DD, HH, mm and ss. */
export function formatDate(date: Date, format: string): string {
  const values: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => values[token] ?? token);
}

/** Reads a date written in a format of YYYY, MM and DD tokens; null unless it is a real day. */
export function parseDate(text: string, format: string): Date | null {
  const order: string[] = [];
  const pattern = format.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => {
    order.push(token);
    return token === 'YYYY' ? '(\\d{4})' : '(\\d{2})';
  });
  const match = new RegExp(`^${pattern}$`).exec(text.trim());
  if (!match) return null;
  const part = (token: string) => Number(match[order.indexOf(token) + 1] ?? 0);
  const year = part('YYYY');
  const month = part('MM') - 1;
  const day = part('DD');
  const date = new Date(year, month, day);
  return date.getFullYear() === year && date.getMonth() === month && date.getDate() === day ? date : null;
}

export function formatRange(range: DateRange, format: string, separator: string): string {
  return `${formatDate(range.start, format)}${separator}${formatDate(range.end, format)}`;
}

export function parseRange(text: string, format: string, separator: string): DateRange | null {
  const parts = text.split(separator);
  if (parts.length !== 2) return null;
  const start = parseDate(parts[0] ?? '', format);
  const end = parseDate(parts[1] ?? '', format);
  return start && end && start <= end ? { start, end } : null;
}

export const SHORTCUTS = ['today', 'yesterday', 'last7Days', 'last30Days', 'thisMonth', 'lastMonth'] as const;
export type Shortcut = (typeof SHORTCUTS)[number];

/** The ranges behind the picker's shortcuts, as of a given day. */
export function shortcutRange(shortcut: Shortcut, now: Date): DateRange {
  const today = startOfDay(now);
  switch (shortcut) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { start: yesterday, end: yesterday };
    }
    case 'last7Days':
      return { start: addDays(today, -6), end: today };
    case 'last30Days':
      return { start: addDays(today, -29), end: today };
    case 'thisMonth':
      return { start: new Date(today.getFullYear(), today.getMonth(), 1), end: today };
    case 'lastMonth':
      return {
        start: new Date(today.getFullYear(), today.getMonth() - 1, 1),
        end: new Date(today.getFullYear(), today.getMonth(), 0),
      };
  }
}
