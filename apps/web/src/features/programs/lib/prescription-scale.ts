import type { PrescriptionGrid } from '@pivot/contracts';

/**
 * The prescription's colours: pale yellow for its lowest rate to deep blue for its highest, over
 * the range the file holds rather than fixed classes, since a prescription often varies by a few
 * millimetres only and those are what the farmer checks the sectors against. The ramp (ColorBrewer's
 * YlGnBu) reads as more and less water to readers who cannot tell red from green, and stays
 * distinct from the sectors' outlines drawn over it.
 */
export const PRESCRIPTION_RAMP = ['#ffffcc', '#a1dab4', '#41b6c4', '#2c7fb8', '#253494'] as const;

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [value >> 16, (value >> 8) & 0xff, value & 0xff];
};
const RAMP_RGB = PRESCRIPTION_RAMP.map(rgbOf);

export type PrescriptionScale = {
  /** The lowest and highest rate of the grid, mm. */
  min: number;
  max: number;
  colorOf: (rate: number) => Rgb;
};

/** The colour scale of a grid's rates; null when it prescribes nothing. */
export function prescriptionScale(rates: readonly (number | null)[]): PrescriptionScale | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const rate of rates) {
    if (rate === null) continue;
    min = Math.min(min, rate);
    max = Math.max(max, rate);
  }
  if (min > max) return null;
  const last = RAMP_RGB.length - 1;
  return {
    min,
    max,
    colorOf: (rate) => {
      // One rate all over: the ramp's middle, neither "little" nor "much".
      const share = max > min ? Math.min(1, Math.max(0, (rate - min) / (max - min))) : 0.5;
      const position = share * last;
      const below = Math.min(last - 1, Math.floor(position));
      const within = position - below;
      const [from, to] = [RAMP_RGB[below]!, RAMP_RGB[below + 1]!];
      return [0, 1, 2].map((channel) => Math.round(from[channel]! + (to[channel]! - from[channel]!) * within)) as Rgb;
    },
  };
}

/** The grid as RGBA pixels, one a cell, row by row from the north-west as the grid is; transparent where nothing is prescribed. */
export function prescriptionPixels(grid: PrescriptionGrid, scale: PrescriptionScale): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(grid.columns * grid.rows * 4);
  grid.rates.forEach((rate, cell) => {
    if (rate === null) return;
    const [red, green, blue] = scale.colorOf(rate);
    pixels.set([red, green, blue, 255], cell * 4);
  });
  return pixels;
}
