import { METRES_PER_DEGREE } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { SOIL_WATER_CLASSES, depletionShare, soilWaterColor } from './soil-water-scale';
import { gridRaster } from './watermap-image';

describe('the soil water scale', () => {
  it('colours a cell by its depletion as a share of its TAW, from wet to dry', () => {
    expect(soilWaterColor(depletionShare(0, 80))).toBe(SOIL_WATER_CLASSES[0].color);
    expect(soilWaterColor(depletionShare(40, 80))).toBe(SOIL_WATER_CLASSES[2].color);
    expect(soilWaterColor(depletionShare(79, 80))).toBe(SOIL_WATER_CLASSES[4].color);
    // Never beyond the wilting point, and no TAW (no roots yet) is nothing missing.
    expect(depletionShare(120, 80)).toBe(1);
    expect(depletionShare(3, 0)).toBe(0);
  });
});

describe('gridRaster', () => {
  const step = 10;
  const latStep = step / METRES_PER_DEGREE;
  const lngStep = step / (METRES_PER_DEGREE * Math.cos((52 * Math.PI) / 180));
  const cells: [number, number, number, number][] = [
    [52, 17, 0, 80],
    [52 + latStep, 17 + 2 * lngStep, 70, 80],
  ];

  it('colours each cell as it is told and finds the cell under a point', () => {
    const raster = gridRaster(cells, step, ([, , depletion, taw]) => soilWaterColor(depletionShare(depletion, taw)))!;
    const pixel = (x: number, y: number) => [
      ...raster.pixels.slice((y * raster.width + x) * 4, (y * raster.width + x) * 4 + 3),
    ];
    const rgb = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
    expect(pixel(0, 1)).toEqual(rgb(SOIL_WATER_CLASSES[0].color));
    expect(pixel(2, 0)).toEqual(rgb(SOIL_WATER_CLASSES[4].color));
    // Anywhere within a cell's square finds it; between the cells and off the grid, none.
    expect(raster.cellAt(52 + latStep * 0.4, 17 - lngStep * 0.4)).toBe(0);
    expect(raster.cellAt(52 + latStep * 1.3, 17 + 1.8 * lngStep)).toBe(1);
    expect(raster.cellAt(52 + latStep, 17 + lngStep)).toBeNull();
    expect(raster.cellAt(53, 17)).toBeNull();
  });
});
