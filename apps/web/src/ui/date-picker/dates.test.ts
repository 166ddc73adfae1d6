import { describe, expect, it } from 'vitest';
import {
  CALENDAR_CELLS,
  YEARS_PER_PAGE,
  addMonths,
  calendarCells,
  daysBetween,
  isFieldDateDisabled,
  yearPage,
} from './calendar-days';
import {
  DEFAULT_OUTPUT_FORMAT,
  FIELD_FORMAT,
  RANGE_SEPARATOR,
  formatDate,
  formatRange,
  parseDate,
  parseRange,
  shortcutRange,
} from './dates';

const day = (year: number, month: number, date: number) => new Date(year, month - 1, date);

describe('calendar arithmetic', () => {
  it('shows 42 days from the Monday on or before the first of the month', () => {
    const cells = calendarCells(2026, 4); // May 2026 starts on a Friday
    expect(cells).toHaveLength(CALENDAR_CELLS);
    expect(cells[0]).toEqual(day(2026, 4, 27));
    expect(cells[0]?.getDay()).toBe(1);
    expect(cells[41]).toEqual(day(2026, 6, 7));
  });

  it('pages years twelve at a time', () => {
    expect(yearPage(2026)).toHaveLength(YEARS_PER_PAGE);
    expect(yearPage(2026)).toContain(2026);
    expect(yearPage(2026)[0]).toBe(yearPage(2016)[0]);
  });

  it('keeps a month step inside short months', () => {
    expect(addMonths(day(2026, 1, 31), 1)).toEqual(day(2026, 2, 28));
  });

  it('counts days on the calendar across a change of summer time', () => {
    expect(daysBetween(day(2026, 3, 28), day(2026, 3, 30))).toBe(2);
  });
});

describe('formats', () => {
  it('writes the default output and the field format', () => {
    const date = new Date(2026, 6, 4, 9, 5, 7);
    expect(DEFAULT_OUTPUT_FORMAT).toBe('YYYY-MM-DD HH:mm:ss');
    expect(formatDate(date, DEFAULT_OUTPUT_FORMAT)).toBe('2026-07-04 09:05:07');
    expect(formatDate(date, FIELD_FORMAT)).toBe('04.07.2026');
  });

  it('reads only real days', () => {
    expect(parseDate('29.02.2028', FIELD_FORMAT)).toEqual(day(2028, 2, 29));
    expect(parseDate('29.02.2026', FIELD_FORMAT)).toBeNull();
    expect(parseDate('2026-07-04', FIELD_FORMAT)).toBeNull();
  });

  it("joins a range with ' - ' and reads it back", () => {
    const range = { start: day(2026, 7, 1), end: day(2026, 7, 20) };
    const text = formatRange(range, FIELD_FORMAT, RANGE_SEPARATOR);
    expect(text).toBe('01.07.2026 - 20.07.2026');
    expect(parseRange(text, FIELD_FORMAT, RANGE_SEPARATOR)).toEqual(range);
    expect(parseRange('20.07.2026 - 01.07.2026', FIELD_FORMAT, RANGE_SEPARATOR)).toBeNull();
  });
});

describe('shortcuts', () => {
  const now = new Date(2026, 6, 15, 13, 0);
  it.each([
    ['today', day(2026, 7, 15), day(2026, 7, 15)],
    ['yesterday', day(2026, 7, 14), day(2026, 7, 14)],
    ['last7Days', day(2026, 7, 9), day(2026, 7, 15)],
    ['last30Days', day(2026, 6, 16), day(2026, 7, 15)],
    ['thisMonth', day(2026, 7, 1), day(2026, 7, 15)],
    ['lastMonth', day(2026, 6, 1), day(2026, 6, 30)],
  ] as const)('%s', (shortcut, start, end) => {
    expect(shortcutRange(shortcut, now)).toEqual({ start, end });
  });
});

describe('the date-range field rule', () => {
  const now = new Date(2026, 6, 15, 13, 0);
  it('disables every day before tomorrow', () => {
    expect(isFieldDateDisabled(day(2026, 7, 15), null, now)).toBe(true);
    expect(isFieldDateDisabled(day(2026, 7, 16), null, now)).toBe(false);
  });

  it('disables the seven days on each side of a picked start', () => {
    const start = day(2026, 8, 10);
    expect(isFieldDateDisabled(start, start, now)).toBe(false);
    expect(isFieldDateDisabled(day(2026, 8, 3), start, now)).toBe(true);
    expect(isFieldDateDisabled(day(2026, 8, 17), start, now)).toBe(true);
    expect(isFieldDateDisabled(day(2026, 8, 2), start, now)).toBe(false);
    expect(isFieldDateDisabled(day(2026, 8, 18), start, now)).toBe(false);
  });
});
