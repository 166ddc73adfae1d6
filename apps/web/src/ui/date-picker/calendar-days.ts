/**
 * The calendar panel's and the date-range field's day arithmetic, fetched with the calendar
 * (dates.ts, which a machine page's address needs too, is in every page's first code).
 */
import { addDays, startOfDay } from './dates';

/** docs/product.md#limits: six weeks always, so the panel keeps its height from month to month. */
export const CALENDAR_CELLS = 42;
export const YEARS_PER_PAGE = 12;

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
