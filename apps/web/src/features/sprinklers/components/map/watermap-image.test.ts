import { METRES_PER_DEGREE } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { watermapRaster } from './watermap-image';
import { WATER_CLASSES, waterColor } from './watermap-scale';

describe('the watermap scale', () => {
  it('puts each depth in its class, the deepest open-ended', () => {
    expect(waterColor(0)).toBe(WATER_CLASSES[0].color);
    expect(waterColor(5)).toBe(WATER_CLASSES[1].color);
    expect(waterColor(39.9)).toBe(WATER_CLASSES[3].color);
    expect(waterColor(500)).toBe(WATER_CLASSES[4].color);
  });
});

describe('watermapRaster', () => {
  const step = 10;
  const latStep = step / METRES_PER_DEGREE;
  const lngStep = step / (METRES_PER_DEGREE * Math.cos((52 * Math.PI) / 180));
  const pixel = (raster: NonNullable<ReturnType<typeof watermapRaster>>, x: number, y: number) => [
    ...raster.pixels.slice((y * raster.width + x) * 4, (y * raster.width + x) * 4 + 4),
  ];

  it('draws each cell as one pixel in its place, north up, with nothing where no water fell', () => {
    const raster = watermapRaster({
      step,
      data: [
        [52, 17, 2],
        [52 + latStep, 17 + 2 * lngStep, 50],
      ],
    })!;
    expect([raster.width, raster.height]).toEqual([3, 2]);
    expect(pixel(raster, 0, 1)).toEqual([0xba, 0xe6, 0xfd, 255]); // the 2 mm cell, south-west
    expect(pixel(raster, 2, 0)).toEqual([0x1e, 0x3a, 0x8a, 255]); // the 50 mm cell, north-east
    expect(pixel(raster, 1, 0)).toEqual([0, 0, 0, 0]);
  });

  it('spans the cells from edge to edge, half a cell beyond the outer centres', () => {
    const raster = watermapRaster({ step, data: [[52, 17, 1]] })!;
    const [[south, west], [north, east]] = raster.bounds;
    expect((north - south) * METRES_PER_DEGREE).toBeCloseTo(step, 6);
    expect((east - west) * METRES_PER_DEGREE * Math.cos((52 * Math.PI) / 180)).toBeCloseTo(step, 6);
  });

  it('draws nothing for a range without water, or for cells spread too far for one image', () => {
    expect(watermapRaster({ step, data: [] })).toBeNull();
    expect(
      watermapRaster({
        step,
        data: [
          [52, 17, 1],
          [52, 20, 1],
        ],
      }),
    ).toBeNull();
  });
});
