import type { Position } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import en from '@/i18n/locales/en.programs.json';
import pl from '@/i18n/locales/pl.programs.json';
import { MAX_CORNERS, shapeError } from './shape-validity';

const square: Position[] = [
  [17, 52],
  [17.01, 52],
  [17.01, 52.01],
  [17, 52.01],
];
const hole = (west: number): Position[] => [
  [west, 52.002],
  [west + 0.002, 52.002],
  [west + 0.002, 52.004],
  [west, 52.002],
];

describe("the sector editor's shape check", () => {
  it('accepts a simple shape, and one keeping a hole inside it', () => {
    expect(shapeError(square, [])).toBeUndefined();
    expect(shapeError(square, [hole(17.002)])).toBeUndefined();
  });

  it('asks for three corners first', () => {
    expect(shapeError(square.slice(0, 2), [])).toBe('shapeRequired');
  });

  it('refuses what the server refuses: a bowtie, a line, a hole left outside, too many corners', () => {
    const bowtie: Position[] = [square[0]!, square[2]!, square[1]!, square[3]!];
    expect(shapeError(bowtie, [])).toBe('shapeCrossing');
    expect(shapeError([square[0]!, [17.005, 52], square[1]!], [])).toBe('shapeNoArea');
    expect(shapeError(square, [hole(17.02)])).toBe('shapeHoleOutside');
    const many = Array.from({ length: MAX_CORNERS + 1 }, (_, index): Position => {
      const angle = (2 * Math.PI * index) / (MAX_CORNERS + 1);
      return [17 + 0.01 * Math.cos(angle), 52 + 0.01 * Math.sin(angle)];
    });
    expect(shapeError(many, [])).toBe('shapeTooManyCorners');
  });

  it('has a message for each in both languages', () => {
    for (const key of ['shapeCrossing', 'shapeNoArea', 'shapeHoleOutside', 'shapeTooManyCorners'] as const) {
      expect(en.programs.sector.errors[key]).toBeTruthy();
      expect(pl.programs.sector.errors[key]).toBeTruthy();
    }
    expect(pl.programs.sector.errors.shapeTooManyCorners).toContain('{{max}}');
  });
});
