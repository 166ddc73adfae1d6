/** Calendar arithmetic on local dates for the date picker; times are always the start of the day. */

export type DateRange = { start: Date; end: Date };

/** docs/product.md#limits: what the picker writes unless told otherwise. */
export const DEFAULT_OUTPUT_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** docs/product.md#validation: how the form field writes a date, and what goes between the two dates of a range. */
export const FIELD_FORMAT = 'DD.MM.YYYY';
export const RANGE_SEPARATOR = ' - ';
/** docs/product.md#limits: six weeks always, so the panel keeps its height from month to month. */
export const CALENDAR_CELLS = 42;
export const YEARS_PER_PAGE = 12;

export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The same day in another month, or that month's last day when it is shorter (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const first = new Date(date.getFullYear(), date.getMonth() + months, 1);
  const lastDay = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  return new Date(first.getFullYear(), first.getMonth(), Math.min(date.getDate(), lastDay));
}

export function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** Whole days from a to b, counted on the calendar so that a change of summer time does not skew it. */
export function daysBetween(a: Date, b: Date): number {
  const utcA = Date.UTC(a.getFullYear(), a.getMonth(), a.getDate());
  const utcB = Date.UTC(b.getFullYear(), b.getMonth(), b.getDate());
  return Math.round((utcB - utcA) / 86_400_000);
}

/** The 42 days shown for a month: from the Monday on or before its first day. */
export function calendarCells(year: number, month: number): Date[] {
  const first = new Date(year, month, 1);
  const mondayOffset = (first.getDay() + 6) % 7;
  const start = addDays(first, -mondayOffset);
  return Array.from({ length: CALENDAR_CELLS }, (_, index) => addDays(start, index));
}

/** The page of 12 years that holds a year. */
export function yearPage(year: number): number[] {
  const first = Math.floor(year / YEARS_PER_PAGE) * YEARS_PER_PAGE;
  return Array.from({ length: YEARS_PER_PAGE }, (_, index) => first + index);
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

/** docs/product.md#validation, the form field: a start leaves out the 7 days on each side of it. */
export const FIELD_BLOCKED_DAYS_AROUND_START = 7;

/**
 * The date-range form field's rule (docs/product.md#validation): days before tomorrow are disabled, and once a
 * start is picked, so are the days within 7 days before or after it.
 */
export function isFieldDateDisabled(date: Date, pendingStart: Date | null, now: Date): boolean {
  if (date < addDays(startOfDay(now), 1)) return true;
  if (!pendingStart) return false;
  const distance = Math.abs(daysBetween(pendingStart, date));
  return distance > 0 && distance <= FIELD_BLOCKED_DAYS_AROUND_START;
}
