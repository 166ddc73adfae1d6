import { describe, expect, it } from 'vitest';
import {
  irrigationDoses,
  nextIrrigation,
  nextIrrigationOfCells,
  outlookFromCurves,
  percentTimerFor,
} from '../../src/modules/water-balance/irrigation-advice';
import { SOIL_TEXTURES } from '../../src/modules/crop-seasons/soil-table';
import { tableSeasonCrop } from '../../src/modules/crop-seasons/season-crop';
import { seasonCurves } from '../../src/modules/water-balance/water-balance';

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
    const doses = irrigationDoses(21, 0.85, 10);
    expect(doses.netDose).toBe(21);
    expect(doses.restDose).toBe(0);
    // 21 / 0.85 = 24.71 mm; 100 × 10 / 24.71 = 40.48 %.
    expect(doses.grossDose).toBeCloseTo(24.71, 2);
    expect(doses.percentTimer).toBeCloseTo(40.48, 2);
    expect(irrigationDoses(21, 0.85, null).percentTimer).toBeNull();
  });

  it('give one pass at most 25 mm net, and leave the rest of the depletion to the next pass', () => {
    // A maize zone 46 mm short: 25 mm net this pass (25 / 0.85 = 29.41 mm gross), 21 mm the next.
    const doses = irrigationDoses(46, 0.85, 5.95);
    expect(doses.netDose).toBe(25);
    expect(doses.restDose).toBe(21);
    expect(doses.grossDose).toBeCloseTo(29.41, 2);
    // 100 × 5.95 / 29.41 = 20.23 %: a turn at about a fifth of the fastest, not 11 %.
    expect(doses.percentTimer).toBeCloseTo(20.23, 2);
    expect(irrigationDoses(25, 0.85, null)).toMatchObject({ netDose: 25, restDose: 0 });
  });

  it('answer 100 % where the dose is less than the machine gives at its fastest', () => {
    expect(percentTimerFor(6, 8)).toBe(100);
    expect(percentTimerFor(16, 8)).toBe(50);
  });
});
