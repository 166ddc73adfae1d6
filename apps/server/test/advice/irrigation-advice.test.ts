import { describe, expect, it } from 'vitest';
import { TABLE_CROPS } from '../../src/modules/advice/crop-table';
import {
  irrigationDoses,
  meanEvapotranspirationOutlook,
  meanRecentEvapotranspiration,
  nextIrrigation,
  nextIrrigationOfCells,
  outlookFromCurves,
  percentTimerFor,
} from '../../src/modules/advice/irrigation-advice';
import { SOIL_TEXTURES } from '../../src/modules/advice/soil-table';
import { seasonCurves, tableSeasonCrop } from '../../src/modules/advice/water-balance';

const flat = (days: number, value: number) => Array<number>(days).fill(value);

describe('the next irrigation', () => {
  const outlook = {
    cropEvapotranspiration: flat(10, 5),
    effectiveRain: flat(10, 0),
    totalAvailableWater: flat(10, 60),
    readilyAvailableWater: flat(10, 30),
  };

  it('is due on the first day whose depletion has reached RAW, with that depletion as the net dose', () => {
    expect(nextIrrigation(10, outlook)).toEqual({ daysAhead: 4, netDose: 30 });
    expect(nextIrrigation(31, outlook)).toEqual({ daysAhead: 0, netDose: 31 });
  });

  it("counts a day's rain before deciding, and answers null when the outlook ends first", () => {
    const rainy = { ...outlook, effectiveRain: [0, 0, 0, 12, 0, 0, 0, 0, 0, 0] };
    expect(nextIrrigation(10, rainy)).toEqual({ daysAhead: 7, netDose: 33 });
    expect(nextIrrigation(0, { ...outlook, cropEvapotranspiration: flat(10, 1) })).toBeNull();
  });

  it('is found for every cell of a run at once', () => {
    const { daysAhead, netDose } = nextIrrigationOfCells([10, 31, 0], {
      ...outlook,
      cropEvapotranspiration: flat(10, 2),
    });
    expect([...daysAhead]).toEqual([-1, 0, -1]);
    expect(netDose[1]).toBe(31);
  });

  it('takes the mean ETc over the days the station reported only, and 0 when it reported none of them', () => {
    const crop = tableSeasonCrop('maize-grain');
    const soil = SOIL_TEXTURES['silt-loam'];
    // Days 41–47: three reported at 4 mm of ET0, four the station missed (no ET0 stored).
    const reported = [...Array.from({ length: 40 }, () => true), true, false, true, false, false, true, false];
    const curves = seasonCurves(crop, soil, {
      referenceEvapotranspiration: [...flat(40, 2), 4, 0, 4, 0, 0, 4, 0],
      rain: flat(47, 0),
      wind: flat(47, Number.NaN),
      minHumidity: flat(47, Number.NaN),
    });
    const reportedDays = [41, 43, 46].map((day) => curves.cropEvapotranspiration[day - 1]!);
    expect(meanRecentEvapotranspiration(curves, 47, 7, reported)).toBeCloseTo(
      reportedDays.reduce((sum, value) => sum + value, 0) / 3,
      10,
    );
    expect(meanRecentEvapotranspiration(curves, 47, 7)).toBeLessThan(
      meanRecentEvapotranspiration(curves, 47, 7, reported),
    );
    expect(
      meanRecentEvapotranspiration(
        curves,
        47,
        7,
        reported.map((day, index) => day && index < 40),
      ),
    ).toBe(0);
  });

  it('without a forecast, steps on with the last 7 days’ mean ETc and no rain, the roots still deepening', () => {
    const crop = tableSeasonCrop('maize-grain');
    const soil = SOIL_TEXTURES['silt-loam'];
    const curves = seasonCurves(crop, soil, {
      referenceEvapotranspiration: [...flat(40, 2), ...flat(7, 4)],
      rain: flat(47, 0),
      wind: flat(47, Number.NaN),
      minHumidity: flat(47, Number.NaN),
    });
    const mean = meanRecentEvapotranspiration(curves, 47);
    expect(mean).toBeCloseTo(curves.cropEvapotranspiration.subarray(40).reduce((sum, value) => sum + value, 0) / 7, 10);
    const coming = meanEvapotranspirationOutlook(crop, soil, 48, mean);
    const season = Object.values(TABLE_CROPS['maize-grain'].stages).reduce((sum, days) => sum + days, 0);
    expect(coming.cropEvapotranspiration).toHaveLength(season - 47);
    expect(coming.effectiveRain[0]).toBe(0);
    expect(coming.totalAvailableWater[1]!).toBeGreaterThan(coming.totalAvailableWater[0]!);
    const need = nextIrrigation(0, coming);
    expect(need).not.toBeNull();
    expect(need!.netDose).toBeGreaterThanOrEqual(coming.readilyAvailableWater[need!.daysAhead]!);
  });

  it('reads the coming days from curves that run on with a forecast, up to the season’s last day', () => {
    const curves = seasonCurves(tableSeasonCrop('potato'), SOIL_TEXTURES.loam, {
      referenceEvapotranspiration: flat(150, 3),
      rain: flat(150, 0),
      wind: flat(150, Number.NaN),
      minHumidity: flat(150, Number.NaN),
    });
    const coming = outlookFromCurves(curves, 15);
    expect(coming.readilyAvailableWater[0]).toBe(curves.readilyAvailableWater[14]);
    // The potato's season is 145 days (Table 11, Europe): days 15 … 145.
    expect(coming.cropEvapotranspiration).toHaveLength(131);
    expect(outlookFromCurves(curves, 146).cropEvapotranspiration).toHaveLength(0);
  });
});

describe('the doses', () => {
  it('are the net dose, the gross dose (net ÷ efficiency) and the percent timer that applies it', () => {
    const doses = irrigationDoses(27, 0.85, 10);
    expect(doses.netDose).toBe(27);
    expect(doses.grossDose).toBeCloseTo(31.76, 2);
    expect(doses.percentTimer).toBeCloseTo(31.48, 2);
    expect(irrigationDoses(27, 0.85, null).percentTimer).toBeNull();
  });

  it('answer 100 % where the dose is less than the machine gives at its fastest', () => {
    expect(percentTimerFor(6, 8)).toBe(100);
    expect(percentTimerFor(16, 8)).toBe(50);
  });
});
