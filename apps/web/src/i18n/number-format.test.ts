import { describe, expect, it } from 'vitest';
import { numberFormat } from './number-format';

describe('number formats', () => {
  it('write numbers in the language asked for', () => {
    expect(numberFormat('pl', { maximumFractionDigits: 2 }).format(2.468)).toBe('2,47');
    expect(numberFormat('en', { maximumFractionDigits: 2 }).format(2.468)).toBe('2.47');
    expect(numberFormat('pl', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(14.24)).toBe('+14,2');
  });

  it('are made once for each language and set of options, however many rows use them', () => {
    expect(numberFormat('pl', { maximumFractionDigits: 2 })).toBe(numberFormat('pl', { maximumFractionDigits: 2 }));
    expect(numberFormat('pl', { maximumFractionDigits: 2 })).not.toBe(numberFormat('en', { maximumFractionDigits: 2 }));
    expect(numberFormat('pl', { maximumFractionDigits: 2 })).not.toBe(numberFormat('pl', { maximumFractionDigits: 1 }));
  });
});
