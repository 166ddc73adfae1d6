import { describe, expect, it } from 'vitest';
import { seasonDay } from '../../src/modules/crop-seasons/crop-coefficient';
import { CROP_KEYS, type CropKey, TABLE_CROPS } from '../../src/modules/crop-seasons/crop-table';
import { SOIL_TEXTURES, SOIL_TEXTURE_KEYS } from '../../src/modules/crop-seasons/soil-table';
import { depletionFromWaterContent } from '../../src/modules/crop-seasons/root-zone';
import { customSeasonCrop, tableSeasonCrop } from '../../src/modules/crop-seasons/season-crop';
import {
  type SeasonWeather,
  effectiveRain,
  runCellSeason,
  runCells,
  seasonCurves,
} from '../../src/modules/water-balance/water-balance';

/** mulberry32: the same seed gives the same seasons on every run. */
function seededRandom(seed: number): (low: number, high: number) => number {
  let state = seed >>> 0;
  return (low, high) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return low + (high - low) * (((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296);
  };
}

/** A season's weather: ET0 1–7 mm, rain on about a day in four, wind and RHmin with gaps. */
function randomWeather(between: (low: number, high: number) => number, days: number): SeasonWeather {
  const series = (make: () => number) => Float64Array.from({ length: days }, make);
  return {
    referenceEvapotranspiration: series(() => between(1, 7)),
    rain: series(() => (between(0, 1) < 0.25 ? between(0, 30) : 0)),
    wind: series(() => (between(0, 1) < 0.1 ? Number.NaN : between(0.5, 7))),
    minHumidity: series(() => (between(0, 1) < 0.1 ? Number.NaN : between(15, 90))),
  };
}

/** Pivot passes of 5–40 mm every few days, each cell on its own days. */
function randomApplied(between: (low: number, high: number) => number, days: number, cells: number): Float32Array {
  const applied = new Float32Array(days * cells);
  for (let index = 0; index < applied.length; index += 1) applied[index] = between(0, 1) < 0.2 ? between(5, 40) : 0;
  return applied;
}

describe('the soil-water balance', () => {
  it('conserves water in every cell: water in − ET − deep percolation = the fall in depletion, and 0 ≤ Dr ≤ TAW', () => {
    const between = seededRandom(21);
    const outOfBounds: number[] = [];
    let worstImbalance = 0;
    for (let season = 0; season < 40; season += 1) {
      const key = CROP_KEYS[season % CROP_KEYS.length]!;
      const soil = SOIL_TEXTURES[SOIL_TEXTURE_KEYS[season % SOIL_TEXTURE_KEYS.length]!];
      const days = 120 + Math.floor(between(0, 90));
      const cells = 30;
      const weather = randomWeather(between, days);
      const curves = seasonCurves(tableSeasonCrop(key), soil, weather);
      const applied = randomApplied(between, days, cells);
      const efficiency = between(0.6, 1);
      const startDepletion = Float64Array.from({ length: cells }, () => between(0, 40));
      const run = runCells(curves, { count: cells, applied }, { efficiency, startDepletion });
      for (let cell = 0; cell < cells; cell += 1) {
        const first = Math.min(startDepletion[cell]!, curves.totalAvailableWater[0]!);
        let water = 0;
        let evapotranspiration = 0;
        let percolation = 0;
        for (let day = 0; day < days; day += 1) {
          const index = day * cells + cell;
          water += curves.effectiveRain[day]! + applied[index]! * efficiency;
          evapotranspiration += run.evapotranspiration[index]!;
          percolation += run.deepPercolation[index]!;
          // Checked without expect() in the loop: a million calls would take seconds.
          const depletion = run.depletion[index]!;
          if (depletion < 0 || depletion > curves.totalAvailableWater[day]! + 1e-4) outOfBounds.push(depletion);
          if (run.evapotranspiration[index]! > curves.cropEvapotranspiration[day]! + 1e-4) outOfBounds.push(depletion);
        }
        const fall = first - run.finalDepletion[cell]!;
        worstImbalance = Math.max(worstImbalance, Math.abs(water - evapotranspiration - percolation - fall));
      }
    }
    expect(outOfBounds).toEqual([]);
    expect(worstImbalance).toBeLessThan(1e-2);
  });

  it('gives each of many cells what one cell alone gives', () => {
    const between = seededRandom(7);
    const days = 150;
    const cells = 12;
    const weather = randomWeather(between, days);
    const crop = tableSeasonCrop('potato');
    const soil = SOIL_TEXTURES['sandy-loam'];
    const applied = randomApplied(between, days, cells);
    const run = runCells(seasonCurves(crop, soil, weather), { count: cells, applied }, { efficiency: 0.85 });
    for (let cell = 0; cell < cells; cell += 1) {
      const alone = runCellSeason({
        crop,
        soil,
        weather,
        applied: Array.from({ length: days }, (_, day) => applied[day * cells + cell]!),
        efficiency: 0.85,
      });
      alone.forEach((day, index) => expect(run.depletion[index * cells + cell]).toBe(day.depletion));
    }
  });

  it('goes on from a day as if the season had been run whole (an incremental day)', () => {
    const between = seededRandom(3);
    const days = 100;
    const cells = 20;
    const curves = seasonCurves(tableSeasonCrop('maize-grain'), SOIL_TEXTURES.loam, randomWeather(between, days));
    const applied = randomApplied(between, days, cells);
    const whole = runCells(curves, { count: cells, applied }, { efficiency: 0.85 });
    const before = runCells(
      curves,
      { count: cells, applied: applied.subarray(0, 60 * cells) },
      { efficiency: 0.85, lastDay: 60 },
    );
    const after = runCells(
      curves,
      { count: cells, applied: applied.subarray(60 * cells) },
      { efficiency: 0.85, firstDay: 61, startDepletion: before.finalDepletion },
    );
    expect([...before.depletion, ...after.depletion]).toEqual([...whole.depletion]);
    expect([...after.finalDepletion]).toEqual([...whole.finalDepletion]);
  });

  it('never changes a past day when later days arrive (the climate adjustment looks back only)', () => {
    const between = seededRandom(5);
    const weather = randomWeather(between, 170);
    const crop = tableSeasonCrop('maize-grain');
    const whole = seasonCurves(crop, SOIL_TEXTURES.silt, weather);
    const cut = (series: ArrayLike<number>) => Array.from(series).slice(0, 130);
    const early = seasonCurves(crop, SOIL_TEXTURES.silt, {
      referenceEvapotranspiration: cut(weather.referenceEvapotranspiration),
      rain: cut(weather.rain),
      wind: cut(weather.wind),
      minHumidity: cut(weather.minHumidity),
    });
    expect([...early.cropCoefficient]).toEqual([...whole.cropCoefficient.subarray(0, 130)]);
    expect([...early.readilyAvailableWater]).toEqual([...whole.readilyAvailableWater.subarray(0, 130)]);
  });

  it('adjusts Kc mid and Kc end of a table crop for the stage climate, and takes a custom crop as given', () => {
    const days = 170;
    const windy = {
      referenceEvapotranspiration: Array(days).fill(5),
      rain: Array(days).fill(0),
      wind: Array(days).fill(4),
      minHumidity: Array(days).fill(30),
    };
    const maize = TABLE_CROPS['maize-grain'];
    const table = seasonCurves(tableSeasonCrop('maize-grain'), SOIL_TEXTURES.loam, windy);
    const midDay = maize.stages.initial + maize.stages.development + 10;
    // Eq. 62 with u2 4 m/s, RHmin 30 %, h 2 m: 1.20 + (0.08 + 0.06)(2/3)^0.3 = 1.326.
    expect(table.cropCoefficient[midDay - 1]).toBeCloseTo(1.2 + 0.14 * (2 / 3) ** 0.3, 10);
    expect(table.cropCoefficient[days - 1]).toBeCloseTo(0.6 + 0.14 * (2 / 3) ** 0.3, 10);
    const custom = seasonCurves(customSeasonCrop(maize), SOIL_TEXTURES.loam, windy);
    expect(custom.cropCoefficient[midDay - 1]).toBe(1.2);
    expect(custom.depletionFraction[midDay - 1]).toBe(0.55);
    // A table crop's p follows ETc (6.6 mm/day here); a p given for the season is kept.
    expect(table.depletionFraction[midDay - 1]).toBeCloseTo(
      0.55 + 0.04 * (5 - 5 * table.cropCoefficient[midDay - 1]!),
      10,
    );
    expect(
      seasonCurves(tableSeasonCrop('maize-grain', 0.5), SOIL_TEXTURES.loam, windy).depletionFraction[midDay - 1],
    ).toBe(0.5);
  });

  it('grows the roots from the emergence depth to the maximum by the end of the development stage', () => {
    const potato = TABLE_CROPS.potato;
    const curves = seasonCurves(tableSeasonCrop('potato'), SOIL_TEXTURES.loam, {
      referenceEvapotranspiration: Array(145).fill(3),
      rain: Array(145).fill(0),
      wind: Array(145).fill(Number.NaN),
      minHumidity: Array(145).fill(Number.NaN),
    });
    const lastGrowingDay = potato.stages.initial + potato.stages.development;
    expect(curves.rootDepth[0]).toBe(potato.rootDepth.min);
    expect(curves.rootDepth[lastGrowingDay - 1]).toBe(potato.rootDepth.max);
    expect(curves.rootDepth[144]).toBe(potato.rootDepth.max);
    for (let day = 1; day < 145; day += 1)
      expect(curves.rootDepth[day]).toBeGreaterThanOrEqual(curves.rootDepth[day - 1]!);
  });

  it('counts the season from the day of emergence, day 1, across months and years', () => {
    expect(seasonDay('2026-05-04', '2026-05-04')).toBe(1);
    expect(seasonDay('2026-05-04', '2026-06-03')).toBe(31);
    expect(seasonDay('2025-10-10', '2026-03-29')).toBe(171);
    expect(seasonDay('2026-05-04', '2026-05-03')).toBe(0);
  });

  it('ignores rain under 0.2 ET0 of its day', () => {
    expect(effectiveRain(0.9, 5)).toBe(0);
    expect(effectiveRain(1, 5)).toBe(1);
    expect(effectiveRain(12, 5)).toBe(12);
  });

  it("reads a probe's depletion from its water content (Eq. 87), within 0 … TAW", () => {
    const silt = { fieldCapacity: 0.32, wiltingPoint: 0.12 };
    expect(depletionFromWaterContent(silt, 0.25, 0.8)).toBeCloseTo(56, 10);
    expect(depletionFromWaterContent(silt, 0.4, 0.8)).toBe(0);
    expect(depletionFromWaterContent(silt, 0.05, 0.8)).toBeCloseTo(160, 10);
  });

  it('starts the season at field capacity unless told otherwise, and never beyond TAW', () => {
    const curves = seasonCurves(tableSeasonCrop('soybean'), SOIL_TEXTURES.sand, {
      referenceEvapotranspiration: [0],
      rain: [0],
      wind: [Number.NaN],
      minHumidity: [Number.NaN],
    });
    const run = runCells(curves, { count: 2, applied: [0, 0] }, { efficiency: 1, startDepletion: [0, 500] });
    expect(run.depletion[0]).toBe(0);
    expect(run.depletion[1]).toBeCloseTo(curves.totalAvailableWater[0]!, 4);
  });
});

describe('the crop and soil tables', () => {
  it.each(CROP_KEYS)('%s has its stages, Kc, roots and p', (key: CropKey) => {
    const crop = TABLE_CROPS[key];
    expect(Object.values(crop.stages).every((days) => Number.isInteger(days) && days > 0)).toBe(true);
    expect(crop.rootDepth.max).toBe(crop.maxRootDepthRange[0]);
    expect(crop.rootDepth.min).toBeLessThanOrEqual(crop.rootDepth.max);
    expect(crop.depletionFraction).toBeGreaterThan(0);
    expect(crop.kc.midSeason).toBeGreaterThanOrEqual(crop.kc.initial);
  });

  it('has each texture class of Table 19 with its defaults in the middle of its ranges', () => {
    expect(SOIL_TEXTURES['loamy-sand']).toMatchObject({ fieldCapacity: 0.15, wiltingPoint: 0.065 });
    for (const key of SOIL_TEXTURE_KEYS) {
      const soil = SOIL_TEXTURES[key];
      expect(soil.fieldCapacity).toBeGreaterThanOrEqual(soil.fieldCapacityRange[0]);
      expect(soil.fieldCapacity).toBeLessThanOrEqual(soil.fieldCapacityRange[1]);
      expect(soil.wiltingPoint).toBeGreaterThanOrEqual(soil.wiltingPointRange[0]);
      expect(soil.wiltingPoint).toBeLessThanOrEqual(soil.wiltingPointRange[1]);
      expect(soil.fieldCapacity).toBeGreaterThan(soil.wiltingPoint);
    }
  });
});
