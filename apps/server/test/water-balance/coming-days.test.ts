import { describe, expect, it } from 'vitest';
import { climateAdjustedCoefficient } from '../../src/modules/crop-seasons/crop-coefficient';
import { TABLE_CROPS } from '../../src/modules/crop-seasons/crop-table';
import { recentMean, withComingDays } from '../../src/modules/water-balance/coming-days';
import type { ForecastDay } from '../../src/modules/water-balance/forecast';
import { nextIrrigation, outlookFromCurves } from '../../src/modules/water-balance/irrigation-advice';
import { customSeasonCrop, tableSeasonCrop } from '../../src/modules/crop-seasons/season-crop';
import { runCells, seasonCurves } from '../../src/modules/water-balance/water-balance';

const flat = (days: number, value: number) => Array<number>(days).fill(value);

/**
 * A short custom season, taken as given (no climate adjustment, p fixed): Kc 0.5 for 3 days, a
 * line to 1.0 over the 4 days of development, 1.0 for 5 days, a line to 0.7 over the last 3.
 * Roots held at 0.5 m in a soil of 0.30 / 0.10: TAW = 1000 · 0.20 · 0.5 = 100 mm, RAW = 50 mm.
 */
const crop = customSeasonCrop({
  kc: { initial: 0.5, midSeason: 1, end: 0.7 },
  stages: { initial: 3, development: 4, midSeason: 5, lateSeason: 3 },
  rootDepth: { min: 0.5, max: 0.5 },
  depletionFraction: 0.5,
});
const soil = { fieldCapacity: 0.3, wiltingPoint: 0.1 };
const SEASON_DAYS = 15;
const loam = { fieldCapacity: 0.25, wiltingPoint: 0.12 };

/** Three measured days of the initial stage, 4 mm of ET0 each, no rain; the station reported them all. */
const measured = {
  referenceEvapotranspiration: flat(3, 4),
  rain: flat(3, 0),
  wind: flat(3, Number.NaN),
  minHumidity: flat(3, Number.NaN),
  reported: [true, true, true],
};

/** The zone's depletion at the end of day 3: 24 mm at emergence, then 0.5 · 4 = 2 mm a day. */
function depletionAtDayThree(curves: ReturnType<typeof seasonCurves>): number {
  const run = runCells(curves, { count: 1, applied: flat(3, 0) }, { efficiency: 1, lastDay: 3, startDepletion: [24] });
  return run.finalDepletion[0]!;
}

describe('the coming days', () => {
  it('step on with each day’s own Kc times the recent mean ET0, across the stage change, without a forecast', () => {
    const curves = seasonCurves(crop, soil, withComingDays(measured, [], SEASON_DAYS));
    expect(depletionAtDayThree(curves)).toBeCloseTo(30, 10);
    // By hand, days 4 … 15: ET0 the last days' mean, 4 mm. The development stage begins on day 4:
    // Kc = 0.5 + (day − 3) / 4 · (1.0 − 0.5); mid season 8 … 12 at 1.0; late 13 … 15 down to 0.7.
    const kc = [0.625, 0.75, 0.875, 1, 1, 1, 1, 1, 1, 0.9, 0.8, 0.7];
    const etc = [2.5, 3, 3.5, 4, 4, 4, 4, 4, 4, 3.6, 3.2, 2.8];
    const outlook = outlookFromCurves(curves, 4);
    expect([...curves.cropCoefficient.subarray(3)].map((value) => Number(value.toFixed(10)))).toEqual(kc);
    expect(Array.from(outlook.cropEvapotranspiration, (value) => Number(value.toFixed(10)))).toEqual(etc);
    for (const readily of Array.from(outlook.readilyAvailableWater)) expect(readily).toBeCloseTo(50, 10);
    // Dr from 30 mm: day 4 32.5, day 5 35.5, day 6 39, day 7 43, day 8 47, day 9 51; early on
    // day 10 the depletion (51 mm) has reached RAW (50 mm): water is due then, 51 mm net.
    expect(nextIrrigation(30, outlook)).toEqual({ daysAhead: 6, netDose: expect.closeTo(51, 10) as number });
    // The balance itself over those days, without water: Ks 1 up to RAW, then (100 − 51) / (100 − 50)
    // = 0.98 on day 10, as on any measured day: 51 + 0.98 · 4 = 54.92.
    const run = runCells(
      curves,
      { count: 1, applied: flat(7, 0) },
      { efficiency: 1, firstDay: 4, lastDay: 10, startDepletion: [30] },
    );
    expect([...run.depletion].map((value) => Number(value.toFixed(4)))).toEqual([32.5, 35.5, 39, 43, 47, 51, 54.92]);
    expect(run.stress[6]).toBeCloseTo(0.98, 6);
    // Today's ETc held flat (0.5 · 4 = 2 mm a day) would have put the water 10 days out, on day 14.
    expect(nextIrrigation(30, { ...outlook, cropEvapotranspiration: flat(12, 2) })?.daysAhead).toBe(10);
  });

  it('take the forecast’s ET0 and its rain by the 0.2 ET0 rule, then the recent mean ET0', () => {
    const forecast: ForecastDay[] = [
      { date: '2026-06-04', referenceEvapotranspiration: 5, rain: 0 },
      // 0.8 mm is under 0.2 · 6 = 1.2 mm: evaporated, it does not count.
      { date: '2026-06-05', referenceEvapotranspiration: 6, rain: 0.8 },
      // 10 mm is not: it counts whole.
      { date: '2026-06-06', referenceEvapotranspiration: 6, rain: 10 },
    ];
    const curves = seasonCurves(crop, soil, withComingDays(measured, forecast, SEASON_DAYS));
    const outlook = outlookFromCurves(curves, 4);
    expect(Array.from(outlook.effectiveRain).slice(0, 4)).toEqual([0, 0, 10, 0]);
    // ETc: day 4 0.625 · 5 = 3.125, day 5 0.75 · 6 = 4.5, day 6 0.875 · 6 = 5.25, then 1.0 · 4 a day.
    expect(outlook.cropEvapotranspiration[0]).toBeCloseTo(3.125, 10);
    expect(outlook.cropEvapotranspiration[1]).toBeCloseTo(4.5, 10);
    expect(outlook.cropEvapotranspiration[2]).toBeCloseTo(5.25, 10);
    expect(outlook.cropEvapotranspiration[3]).toBeCloseTo(4, 10);
    // Dr from 30: 33.125, 37.625, (37.625 − 10) + 5.25 = 32.875, 36.875, 40.875, 44.875, 48.875,
    // 52.875 at the end of day 11; due early on day 12, 52.875 mm net.
    const need = nextIrrigation(30, outlook);
    expect(need?.daysAhead).toBe(8);
    expect(need?.netDose).toBeCloseTo(52.875, 10);
  });

  it('take the recent mean over the days the station reported only, and foresee nothing when it reported none', () => {
    // Days 41–47: three reported at 4 mm of ET0, four the station missed (no ET0 stored).
    const reported = [...Array.from({ length: 40 }, () => true), true, false, true, false, false, true, false];
    const reference = [...flat(40, 2), 4, 0, 4, 0, 0, 4, 0];
    expect(recentMean(reference, reported)).toBe(4);
    const none = reported.map((day, index) => day && index < 40);
    expect(recentMean(reference, none)).toBeNaN();
    const weather = withComingDays(
      {
        referenceEvapotranspiration: reference,
        rain: flat(47, 0),
        wind: flat(47, Number.NaN),
        minHumidity: flat(47, Number.NaN),
        reported: none,
      },
      [],
      50,
    );
    expect(Array.from(weather.referenceEvapotranspiration).slice(47)).toEqual([0, 0, 0]);
  });

  it('adjust Kc mid for the recent climate when the mid season begins ahead (Eq. 62)', () => {
    const maize = tableSeasonCrop('maize-grain');
    const { stages, kc, height } = TABLE_CROPS['maize-grain'];
    const days = stages.initial + 5;
    // A windy, dry week: 3 m/s, 30 % minimum humidity; the rest of the season lies ahead.
    const weather = withComingDays(
      {
        referenceEvapotranspiration: flat(days, 5),
        rain: flat(days, 0),
        wind: flat(days, 3),
        minHumidity: flat(days, 30),
        reported: Array.from({ length: days }, () => true),
      },
      [],
      days + stages.development + stages.midSeason,
    );
    const curves = seasonCurves(maize, loam, weather);
    const midDay = stages.initial + stages.development + 1;
    expect(curves.cropCoefficient[midDay - 1]).toBeCloseTo(climateAdjustedCoefficient(kc.midSeason, 3, 30, height), 10);
  });
});
