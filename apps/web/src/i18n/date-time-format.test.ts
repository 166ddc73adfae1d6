import { describe, expect, it } from 'vitest';
import { dateTimeFormat } from './use-date-time-format';

const MOMENT = Date.UTC(2026, 10, 24, 3, 37, 5);

describe('the one date style', () => {
  it('writes a moment day first, with a 4-digit year and a 24-hour clock, in Polish', () => {
    const dates = dateTimeFormat('pl', 'UTC');
    expect(dates.dateTime(MOMENT)).toBe('24.11.2026, 03:37');
    expect(dates.dateTimeToSecond(MOMENT)).toBe('24.11.2026, 03:37:05');
    expect(dates.time(MOMENT)).toBe('03:37:05');
  });

  it('writes the same moment day first in English too, never month first or with AM/PM', () => {
    const dates = dateTimeFormat('en', 'UTC');
    expect(dates.dateTime(Date.UTC(2026, 3, 7, 15, 4))).toBe('07/04/2026, 15:04');
    expect(dates.dateTimeToSecond(MOMENT)).toBe('24/11/2026, 03:37:05');
    expect(dates.time(Date.UTC(2026, 3, 7, 15, 4, 9))).toBe('15:04:09');
  });

  it('writes a calendar day as the same style without the time, the same day in every time zone', () => {
    expect(dateTimeFormat('pl', 'Pacific/Honolulu').day('2026-12-31')).toBe('31.12.2026');
    expect(dateTimeFormat('en', 'Asia/Tokyo').day('2026-01-01')).toBe('01/01/2026');
  });
});
