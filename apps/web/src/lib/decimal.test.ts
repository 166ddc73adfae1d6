import { describe, expect, it } from 'vitest';
import { parseDecimal } from './decimal';

describe('a typed decimal', () => {
  it('takes a point or a comma, a sign and spaces around', () => {
    expect(['12,5', ' 12.5 ', '-0,25', '+3', '.5', '7.'].map(parseDecimal)).toEqual([12.5, 12.5, -0.25, 3, 0.5, 7]);
  });

  it('is no number when empty, written with an exponent, or followed by a unit', () => {
    expect(['', '  ', '1e3', '12 mm', '1,2,3', 'Infinity'].map(parseDecimal)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
