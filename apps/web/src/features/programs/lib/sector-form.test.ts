import type { Position } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { cornersOf, rateNumber, rateText, rateValue, roundedPosition, sectorOf, validateSector } from './sector-form';

const corners: Position[] = [
  [17, 52],
  [17.01, 52],
  [17.01, 52.01],
];

describe('the sector form', () => {
  it('reads the rate with a decimal point or a comma', () => {
    expect(rateValue('12,5')).toBe(12.5);
    expect(rateValue(' -1 ')).toBe(-1);
    expect(rateValue('')).toBeUndefined();
    expect(rateValue('dużo')).toBe('dużo');
    expect(rateNumber('12 mm')).toBeNull();
  });

  it('shows a stored rate back as the language writes it, and reads it back the same', () => {
    expect(rateText(12.5, 'pl')).toBe('12,5');
    expect(rateText(12.5, 'en')).toBe('12.5');
    expect(rateText(-1, 'pl')).toBe('-1');
    expect(rateText(1000.25, 'pl')).toBe('1000,25');
    expect(rateValue(rateText(1000.25, 'pl'))).toBe(1000.25);
  });

  it("gives the spec's messages (as keys) for a missing name, a missing rate and a rate that is not a number", () => {
    expect(validateSector({ name: ' ', rate: '' }, 3, [])).toEqual({ name: 'nameRequired', rate: 'rateRequired' });
    expect(validateSector({ name: 'A', rate: 'dużo' }, 3, [])).toEqual({ rate: 'rateNumeric' });
    expect(validateSector({ name: 'A'.repeat(101), rate: '5000' }, 3, [])).toEqual({
      name: 'nameTooLong',
      rate: 'rateRange',
    });
  });

  it('refuses a name another sector of the program has, and a shape of fewer than three corners', () => {
    expect(validateSector({ name: ' B ', rate: '1' }, 2, ['B'])).toEqual({ name: 'nameTaken', shape: 'shapeRequired' });
    expect(validateSector({ name: 'A', rate: '-1' }, 3, ['B'])).toEqual({});
  });

  it('makes a closed polygon of the corners, keeping the holes', () => {
    const hole: Position[] = [
      [17.002, 52.002],
      [17.003, 52.002],
      [17.003, 52.003],
      [17.002, 52.002],
    ];
    const sector = sectorOf({ name: ' A ', rate: '7,5' }, corners, [hole]);
    expect(sector.properties).toEqual({ name: 'A', rate: 7.5 });
    expect(sector.geometry.coordinates).toEqual([[...corners, corners[0]], hole]);
    expect(cornersOf(sector)).toEqual(corners);
    expect(cornersOf(undefined)).toEqual([]);
  });

  it('rounds pointer positions to about a centimetre', () => {
    expect(roundedPosition(17.123456789, 52.987654321)).toEqual([17.1234568, 52.9876543]);
  });
});
