import { METRES_PER_DEGREE } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n/i18n';
import { buildWaterBalance } from '@/test-factories';
import { activateWholeCatalogue } from '@/test-utils';
import { soilWaterCellText } from './soil-water-cell-text';
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

describe('a Soil water cell in words', () => {
  const balance = buildWaterBalance({ date: '07.06.2026', lastRain: '28.05.2026' });

  it('tells its depletion, TAW, last water and the station’s last rain in the app’s date style', async () => {
    await activateWholeCatalogue('en');
    expect(soilWaterCellText(i18n.t, 'en', balance, [52, 17, 20, 80, 3])).toBe(
      'Depletion 20 mm of 80 mm TAW (25 %) · Last water 04/06/2026, last rain 28/05/2026',
    );
    await activateWholeCatalogue('pl');
    expect(soilWaterCellText(i18n.t, 'pl', balance, [52, 17, 20.5, 80, 0])).toBe(
      'Deficyt wody 20,5 mm z 80 mm TAW (26 %) · Ostatnie nawadnianie 07.06.2026, ostatni deszcz 28.05.2026',
    );
  });

  it('says when there was none this season, across a month’s end', async () => {
    await activateWholeCatalogue('en');
    expect(soilWaterCellText(i18n.t, 'en', buildWaterBalance({ date: '02.06.2026' }), [52, 17, 0, 80, null])).toBe(
      'Depletion 0 mm of 80 mm TAW (0 %) · Last water none this season, last rain none this season',
    );
    expect(soilWaterCellText(i18n.t, 'en', buildWaterBalance({ date: '02.06.2026' }), [52, 17, 0, 80, 2])).toContain(
      'Last water 31/05/2026',
    );
  });
});
