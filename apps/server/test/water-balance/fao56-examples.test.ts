/**
 * The worked examples of FAO Irrigation and Drainage Paper 56 (Allen et al., 1998), reproduced to
 * the precision they are printed with: a value matches when it rounds to the printed figure (a
 * value exactly half-way may round either way, as the paper's own chains of rounded figures do).
 */
import { describe, expect, it } from 'vitest';
import {
  climateAdjustedCoefficient,
  climateAdjustedEndCoefficient,
  cropCoefficientOnDay,
} from '../../src/modules/crop-seasons/crop-coefficient';
import { TABLE_CROPS } from '../../src/modules/crop-seasons/crop-table';
import { nextIrrigation, outlookFromCurves } from '../../src/modules/water-balance/irrigation-advice';
import {
  depletionFractionForEvapotranspiration,
  readilyAvailableWater,
  rootDepthOnDay,
  totalAvailableWater,
  waterStressCoefficient,
} from '../../src/modules/crop-seasons/root-zone';
import { customSeasonCrop } from '../../src/modules/crop-seasons/season-crop';
import {
  runCellSeason,
  runCells,
  seasonCurves,
  type SeasonWeather,
} from '../../src/modules/water-balance/water-balance';

/** Whether a computed value is what the paper prints with `decimals` decimals. */
function expectPrinted(value: number, printed: number, decimals: number) {
  const halfUnit = 0.5 * 10 ** -decimals;
  expect(Math.abs(value - printed), `${value} printed as ${printed}`).toBeLessThanOrEqual(halfUnit + 1e-6);
}

function expectSeriesPrinted(values: readonly number[], printed: readonly number[], decimals: number) {
  expect(values).toHaveLength(printed.length);
  values.forEach((value, index) => expectPrinted(value, printed[index]!, decimals));
}

function weatherOf(referenceEvapotranspiration: number[], rain: number[]): SeasonWeather {
  const none = referenceEvapotranspiration.map(() => Number.NaN);
  return { referenceEvapotranspiration, rain, wind: none, minHumidity: none };
}

describe('FAO-56 chapter 6: the crop coefficient', () => {
  const dryBean = { initial: 0.15, midSeason: 1.19, end: 0.35 };
  const dryBeanStages = { initial: 25, development: 25, midSeason: 30, lateSeason: 20 };

  it('Example 28: Kc of the dry bean crop on days 20, 40, 70 and 95 is 0.15, 0.77, 1.19 and 0.56 (Eq. 66)', () => {
    const kc = [20, 40, 70, 95].map((day) => cropCoefficientOnDay(dryBean, dryBeanStages, day));
    expectSeriesPrinted(kc, [0.15, 0.77, 1.19, 0.56], 2);
  });

  it('Example 30: Kcb of the same crop on days 12, 37, 65 and 90 is 0.15, 0.63, 1.14 and 0.70 (Eq. 66)', () => {
    const kcb = { initial: 0.15, midSeason: 1.14, end: 0.25 };
    const values = [12, 37, 65, 90].map((day) => cropCoefficientOnDay(kcb, dryBeanStages, day));
    expectSeriesPrinted(values, [0.15, 0.63, 1.14, 0.7], 2);
  });

  it('Box 15: Kc mid of dry beans, 1.15 in Table 12, is 1.19 at Kimberly (u2 2.2 m/s, RHmin 30 %, h 0.4 m; Eq. 62)', () => {
    expectPrinted(climateAdjustedCoefficient(1.15, 2.2, 30, 0.4), 1.19, 2);
  });

  it('Box 15: Kc end 0.35 is below 0.45 and is not adjusted (Eq. 65)', () => {
    expect(climateAdjustedEndCoefficient(0.35, 2.2, 30, 0.4)).toBe(0.35);
  });

  it('Example 27: Kc mid of maize is 1.07 near Taipei and 1.30 near Mocha (Eq. 62)', () => {
    const maize = TABLE_CROPS['maize-grain'];
    expect(maize.kc.midSeason).toBe(1.2);
    expect(maize.height).toBe(2);
    expectPrinted(climateAdjustedCoefficient(maize.kc.midSeason, 1.3, 75, maize.height), 1.07, 2);
    expectPrinted(climateAdjustedCoefficient(maize.kc.midSeason, 4.6, 44, maize.height), 1.3, 2);
  });

  it('Eq. 68: the alfalfa-to-grass ratio at Kimberly is 1.24; Example 29: Kcb mid 1.10 becomes 1.14', () => {
    expectPrinted(climateAdjustedCoefficient(1.2, 2.2, 30, 0.5), 1.24, 2);
    expectPrinted(climateAdjustedCoefficient(1.1, 2.2, 30, 0.4), 1.14, 2);
  });
});

describe('FAO-56 chapter 8: the root zone', () => {
  it('Example 36: TAW and RAW of onion, tomato and maize on loamy sand, silt and silty clay (Eq. 82, 83)', () => {
    const soils = [
      { fieldCapacity: 0.15, wiltingPoint: 0.06 }, // loamy sand
      { fieldCapacity: 0.32, wiltingPoint: 0.15 }, // silt
      { fieldCapacity: 0.35, wiltingPoint: 0.23 }, // silty clay
    ];
    const crops = [
      { rootDepth: 0.4, p: 0.3, printed: [36, 11, 68, 20, 48, 14] }, // onion
      { rootDepth: 0.8, p: 0.4, printed: [72, 29, 136, 54, 96, 38] }, // tomato
      { rootDepth: 1.2, p: 0.55, printed: [108, 59, 204, 112, 144, 79] }, // maize
    ];
    for (const crop of crops) {
      const values = soils.flatMap((soil) => {
        const total = totalAvailableWater(soil, crop.rootDepth);
        return [total, readilyAvailableWater(crop.p, total)];
      });
      expectSeriesPrinted(values, crop.printed, 0);
    }
  });

  it('the p adjustment: maize (p 0.55 at 5 mm/day) at ETc 8 mm/day has p 0.43, within 0.1 … 0.8', () => {
    expectPrinted(depletionFractionForEvapotranspiration(TABLE_CROPS['maize-grain'].depletionFraction, 8), 0.43, 2);
    expect(depletionFractionForEvapotranspiration(0.55, 5)).toBeCloseTo(0.55, 10);
    expect(depletionFractionForEvapotranspiration(0.2, 20)).toBe(0.1);
    expect(depletionFractionForEvapotranspiration(0.7, 0)).toBe(0.8);
  });

  it('Example 37: Ks and the depletion of a tomato crop over ten days without water (Eq. 84, 85)', () => {
    const tomato = customSeasonCrop({
      kc: { initial: 1.2, midSeason: 1.2, end: 1.2 },
      stages: { initial: 10, development: 0, midSeason: 0, lateSeason: 0 },
      rootDepth: { min: 0.8, max: 0.8 },
      depletionFraction: 0.4,
    });
    const silt = { fieldCapacity: 0.32, wiltingPoint: 0.12 };
    expect(totalAvailableWater(silt, 0.8)).toBeCloseTo(160, 10);
    expect(readilyAvailableWater(0.4, 160)).toBeCloseTo(64, 10);
    const days = runCellSeason({
      crop: tomato,
      soil: silt,
      weather: weatherOf(Array(10).fill(5), Array(10).fill(0)),
      applied: Array(10).fill(0),
      efficiency: 1,
      startDepletion: 55,
    });
    expectSeriesPrinted(
      days.map((day) => day.cropEvapotranspiration),
      Array(10).fill(6),
      1,
    );
    expectSeriesPrinted(
      days.map((day) => day.stress),
      [1, 1, 0.97, 0.91, 0.85, 0.8, 0.75, 0.7, 0.66, 0.62],
      2,
    );
    expectSeriesPrinted(
      days.map((day) => day.evapotranspiration),
      [6.0, 6.0, 5.8, 5.4, 5.1, 4.8, 4.5, 4.2, 3.9, 3.7],
      1,
    );
    expectSeriesPrinted(
      days.map((day) => day.depletion),
      [61.0, 67.0, 72.8, 78.3, 83.4, 88.2, 92.6, 96.9, 100.8, 104.5],
      1,
    );
  });

  it('Ks is 1 up to RAW and falls in a straight line to 0 at TAW (Eq. 84)', () => {
    expect(waterStressCoefficient(64, 160, 64)).toBe(1);
    expect(waterStressCoefficient(112, 160, 64)).toBeCloseTo(0.5, 10);
    expect(waterStressCoefficient(160, 160, 64)).toBe(0);
  });
});

describe('FAO-56 Example 38: irrigation scheduling to avoid crop water stress', () => {
  // The example's ETc comes from the dual coefficient of Example 35 (Kc = Ks Kcb + Ke, column 12);
  // the balance is fed that printed ETc as each day's demand (Kc 1). Its other assumptions: p 0.6,
  // water early in the day, Zr from 0.30 m on day 1 to 0.35 m on day 10, the subsoil the roots reach
  // at field capacity, and the depletion at the start of day 1 equal to RAW.
  const printedEvapotranspiration = [5.5, 6.1, 4.0, 2.9, 2.5, 2.7, 4.7, 2.8, 2.2, 6.3];
  const rain = [0, 0, 0, 0, 0, 6, 0, 0, 0, 0];
  const crop = customSeasonCrop({
    kc: { initial: 1, midSeason: 1, end: 1 },
    stages: { initial: 0, development: 10, midSeason: 30, lateSeason: 10 },
    rootDepth: { min: 0.3, max: 0.35 },
    depletionFraction: 0.6,
  });
  const soil = { fieldCapacity: 0.23, wiltingPoint: 0.1 };
  const curves = seasonCurves(crop, soil, weatherOf(printedEvapotranspiration, rain));

  it('has TAW = 130 Zr and RAW = 78 Zr, with the printed Zr and RAW of each day', () => {
    const days = Array.from({ length: 10 }, (_, index) => index + 1);
    expectSeriesPrinted(
      days.map((day) => rootDepthOnDay(crop.parameters.rootDepth, crop.parameters.stages, day)),
      [0.3, 0.31, 0.31, 0.32, 0.32, 0.33, 0.33, 0.34, 0.34, 0.35],
      2,
    );
    expectSeriesPrinted([...curves.readilyAvailableWater], [23, 24, 24, 25, 25, 26, 26, 26, 27, 27], 0);
    expect(curves.totalAvailableWater[0]).toBeCloseTo(130 * 0.3, 10);
  });

  it('gives the printed depletion, 17 mm of deep percolation on day 1, and a 27 mm irrigation due on day 10', () => {
    const startDepletion = curves.readilyAvailableWater[0]!;
    expectPrinted(startDepletion, 23, 0);
    const firstNine = runCells(
      curves,
      { count: 1, applied: [40, 0, 0, 0, 0, 0, 0, 0, 0] },
      { efficiency: 1, lastDay: 9, startDepletion: [startDepletion] },
    );
    expectSeriesPrinted([...firstNine.deepPercolation], [17, 0, 0, 0, 0, 0, 0, 0, 0], 0);
    expectSeriesPrinted([...firstNine.stress], Array(9).fill(1), 0);
    expectSeriesPrinted([...firstNine.depletion], [5, 12, 16, 18, 21, 18, 22, 25, 27], 0);

    // Day 10: the depletion has reached RAW, so water is due early that day.
    const need = nextIrrigation(firstNine.finalDepletion[0]!, outlookFromCurves(curves, 10));
    expect(need?.daysAhead).toBe(0);
    expectPrinted(need!.netDose, 27, 0);

    const tenth = runCells(
      curves,
      { count: 1, applied: [need!.netDose] },
      { efficiency: 1, firstDay: 10, lastDay: 10, startDepletion: firstNine.finalDepletion },
    );
    expect(tenth.deepPercolation[0]).toBe(0);
    expectPrinted(tenth.depletion[0]!, 6, 0);
  });

  it('foresees on day 1, from the coming days, that water is due on day 10', () => {
    const firstDay = runCells(
      curves,
      { count: 1, applied: [40] },
      { efficiency: 1, lastDay: 1, startDepletion: [curves.readilyAvailableWater[0]!] },
    );
    const need = nextIrrigation(firstDay.finalDepletion[0]!, outlookFromCurves(curves, 2));
    expect(need === null ? null : 2 + need.daysAhead).toBe(10);
    expectPrinted(need!.netDose, 27, 0);
  });
});
