import { describe, expect, it } from 'vitest';
import { timeAgo } from './time-ago';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const ago = (ms: number, locale = 'en') => timeAgo(NOW - ms, NOW, locale);

describe('how long ago a report was', () => {
  it('counts in the largest whole unit that fits', () => {
    expect(ago(0)).toBe('now');
    expect(ago(999)).toBe('now');
    expect(ago(12_400)).toBe('12 sec. ago');
    expect(ago(2 * 60_000 + 59_000)).toBe('2 min. ago');
    expect(ago(3 * 3_600_000)).toBe('3 hr. ago');
    expect(ago(26 * 3_600_000)).toBe('yesterday');
    expect(ago(5 * 86_400_000)).toBe('5 days ago');
  });

  it('speaks the page’s language', () => {
    expect(ago(0, 'pl')).toBe('teraz');
    expect(ago(12_000, 'pl')).toBe('12 sek. temu');
    expect(ago(2 * 60_000, 'pl')).toBe('2 min temu');
    expect(ago(5 * 3_600_000, 'pl')).toBe('5 godz. temu');
    expect(ago(26 * 3_600_000, 'pl')).toBe('wczoraj');
  });

  it('says now for a time a little ahead, as two clocks never agree exactly', () => {
    expect(ago(-800)).toBe('now');
  });
});
