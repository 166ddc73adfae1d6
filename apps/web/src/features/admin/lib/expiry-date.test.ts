import { describe, expect, it } from 'vitest';
import { fieldDateToIso, isoToFieldDate } from './expiry-date';

describe('the subscription expiry date', () => {
  it('is shown as DD.MM.YYYY and sent as YYYY-MM-DD', () => {
    expect(isoToFieldDate('2030-03-31')).toBe('31.03.2030');
    expect(isoToFieldDate(null)).toBe('');
    expect(fieldDateToIso('31.03.2030')).toBe('2030-03-31');
    expect(fieldDateToIso(' 01.01.2027 ')).toBe('2027-01-01');
  });

  it('is none when empty, and not a date when it is no real day', () => {
    expect(fieldDateToIso('')).toBeNull();
    expect(fieldDateToIso('   ')).toBeNull();
    expect(fieldDateToIso('31.02.2030')).toBeUndefined();
    expect(fieldDateToIso('2030-03-31')).toBeUndefined();
  });
});
