import { describe, expect, it } from 'vitest';
import { PRESCRIPTION_RAMP, prescriptionPixels, prescriptionScale } from './prescription-scale';

const hex = ([red, green, blue]: number[]) =>
  `#${[red, green, blue].map((value) => value!.toString(16).padStart(2, '0')).join('')}`;

describe("the prescription's colours", () => {
  it('run from the ramp’s first colour at the lowest rate to its last at the highest, whatever the range', () => {
    const scale = prescriptionScale([null, 10, 14, 12, null])!;
    expect(scale).toMatchObject({ min: 10, max: 14 });
    expect(hex(scale.colorOf(10))).toBe(PRESCRIPTION_RAMP[0]);
    expect(hex(scale.colorOf(12))).toBe(PRESCRIPTION_RAMP[2]);
    expect(hex(scale.colorOf(14))).toBe(PRESCRIPTION_RAMP[4]);
    // Between two of the ramp's colours: between them, channel by channel.
    const [red, green, blue] = scale.colorOf(10.5);
    expect(red).toBeLessThan(0xff);
    expect(red).toBeGreaterThan(0xa1);
    expect(green).toBeLessThan(0xff);
    expect(blue).toBeGreaterThan(0xb4);
  });

  it('give one rate all over the middle colour, and no scale to a grid with no rate', () => {
    expect(hex(prescriptionScale([8, 8, null])!.colorOf(8))).toBe(PRESCRIPTION_RAMP[2]);
    expect(prescriptionScale([null, null])).toBeNull();
  });

  it('paint a pixel a cell, transparent where nothing is prescribed', () => {
    const grid = { west: 17, south: 52, east: 17.01, north: 52.01, columns: 2, rows: 1, rates: [null, 5] };
    const pixels = prescriptionPixels(grid, prescriptionScale(grid.rates)!);
    expect([...pixels]).toEqual([0, 0, 0, 0, 0x41, 0xb6, 0xc4, 255]);
  });
});
