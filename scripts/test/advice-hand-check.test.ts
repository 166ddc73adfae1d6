/**
 * The hand check's own arithmetic (bench/support/fao56-by-hand.ts, which `npm run check:advice`
 * recomputes the server's season with) against FAO-56's worked examples and docs/advice.md's
 * examples, so that a disagreement it reports is the server's and not the check's.
 */
import { describe, expect, it } from 'vitest';
import {
  balanceDay,
  climateAdjusted,
  doseOf,
  effectiveRain,
  kcOnDay,
  pAdjusted,
  probeDepletion,
  rootDepthOnDay,
  totalAvailableWater,
  waterStress,
} from '../../bench/support/fao56-by-hand';

/** A value agrees with the paper when it rounds to the printed figure. */
function expectPrinted(value: number, printed: number, decimals: number) {
  expect(Number(value.toFixed(decimals))).toBe(printed);
}

describe('the hand check of the advice: its FAO-56 arithmetic', () => {
  it('Example 36: TAW and RAW of onion, tomato and maize on loamy sand, silt and silty clay (Eq. 82, 83)', () => {
    const soils = [
      [0.15, 0.06],
      [0.32, 0.15],
      [0.35, 0.23],
    ] as const;
    const crops = [
      { rootDepth: 0.4, p: 0.3, printed: [36, 11, 68, 20, 48, 14] },
      { rootDepth: 0.8, p: 0.4, printed: [72, 29, 136, 54, 96, 38] },
      { rootDepth: 1.2, p: 0.55, printed: [108, 59, 204, 112, 144, 79] },
    ];
    for (const crop of crops) {
      const values = soils.flatMap(([fieldCapacity, wiltingPoint]) => {
        const taw = totalAvailableWater(fieldCapacity, wiltingPoint, crop.rootDepth);
        return [taw, crop.p * taw];
      });
      values.forEach((value, index) => expectPrinted(value, crop.printed[index] ?? Number.NaN, 0));
    }
  });

  it('Table 22, footnote 2: maize (p 0.55) at ETc 8 mm/day has p 0.43, held to 0.1 … 0.8', () => {
    expectPrinted(pAdjusted(0.55, 8), 0.43, 2);
    expect(pAdjusted(0.2, 20)).toBe(0.1);
    expect(pAdjusted(0.7, 0)).toBe(0.8);
  });

  it('Example 37: Ks and the depletion of tomatoes on a silt over ten days without water (Eq. 84, 85)', () => {
    const taw = totalAvailableWater(0.32, 0.12, 0.8);
    const raw = 0.4 * taw;
    expectPrinted(taw, 160, 6);
    expectPrinted(raw, 64, 6);
    let depletion = 55;
    const stress: number[] = [];
    const depletions: number[] = [];
    for (let day = 0; day < 10; day += 1) {
      const step = balanceDay(depletion, 0, 0, 1.2 * 5, taw, raw);
      stress.push(step.ks);
      depletions.push(step.depletion);
      depletion = step.depletion;
    }
    const printedStress = [1, 1, 0.97, 0.91, 0.85, 0.8, 0.75, 0.7, 0.66, 0.62];
    stress.forEach((ks, index) => expectPrinted(ks, printedStress[index] ?? Number.NaN, 2));
    expectPrinted(depletions[0] ?? Number.NaN, 61, 1);
    expectPrinted(depletions[9] ?? Number.NaN, 104.5, 1);
  });

  it('Eq. 84 at its ends: 1 up to RAW, 0 at TAW', () => {
    expect(waterStress(64, 160, 64)).toBe(1);
    expect(waterStress(160, 160, 64)).toBe(0);
    expect(waterStress(112, 160, 64)).toBeCloseTo(0.5, 12);
  });

  it('the balance refills before the day ET, and what the soil cannot hold percolates (Example 38: 40 mm on 23 mm, 17 mm)', () => {
    const step = balanceDay(23, 40, 0, 5.5, 100, 50);
    expect(step.deepPercolation).toBe(17);
    expect(step.start).toBe(0);
    expect(step.depletion).toBe(5.5);
    // The crop never takes more than is left above the wilting point (Eq. 86).
    expect(balanceDay(98, 0, 0, 5, 100, 100).depletion).toBe(100);
  });

  it('Eq. 66: Kc of maize through its stages (30/40/50/50 days, 0.30/1.20/0.60)', () => {
    const stages = [30, 40, 50, 50] as const satisfies [number, number, number, number];
    const kc = [0.3, 1.2, 0.6] as [number, number, number];
    expect(kcOnDay(kc, [...stages], 30)).toBe(0.3);
    expect(kcOnDay(kc, [...stages], 50)).toBeCloseTo(0.3 + (20 / 40) * 0.9, 12);
    expect(kcOnDay(kc, [...stages], 100)).toBe(1.2);
    expect(kcOnDay(kc, [...stages], 145)).toBeCloseTo(1.2 - (25 / 50) * 0.6, 12);
    expect(kcOnDay(kc, [...stages], 400)).toBeCloseTo(0.6, 12);
  });

  it('Eq. 62: the standard climate changes nothing; a windy, dry one adds by the printed formula', () => {
    expect(climateAdjusted(1.15, 2, 45, 2)).toBe(1.15);
    const hand = 1.15 + (0.04 * (4 - 2) - 0.004 * (30 - 45)) * (2 / 3) ** 0.3;
    expect(climateAdjusted(1.15, 4, 30, 2)).toBeCloseTo(hand, 12);
    // The means are held to the ranges the equation is given for.
    expect(climateAdjusted(1.15, 9, 10, 2)).toBeCloseTo(climateAdjusted(1.15, 6, 20, 2), 12);
  });

  it('Annex 8, Eq. 8-3: roots from Zr min on day 1 to Zr max at the end of development', () => {
    const crop = {
      rootDepth: [0.15, 1] as [number, number],
      stages: [30, 40, 50, 50] as [number, number, number, number],
    };
    expect(rootDepthOnDay(crop, 1)).toBe(0.15);
    expect(rootDepthOnDay(crop, 70)).toBe(1);
    expect(rootDepthOnDay(crop, 35.5)).toBeCloseTo(0.575, 12);
  });

  it('docs/advice.md: Eq. 87 (θFC 0.30, a reading of 22 %, Zr 0.6 m: 48 mm), the 0.2 ET0 rain rule, one pass of 25 mm net', () => {
    expect(probeDepletion(0.3, 0.22, 0.6, 200)).toBeCloseTo(48, 10);
    expect(probeDepletion(0.3, 0.35, 0.6, 200)).toBe(0);
    expect(effectiveRain(0.8, 4)).toBe(0.8);
    expect(effectiveRain(0.79, 4)).toBe(0);
    expect(effectiveRain(5, 4)).toBe(5);
    // Maize 46 mm short at 85 %, 5.95 mm at 100 %: 25 net, 29.41 gross, timer 20.23 %, 21 mm left.
    const dose = doseOf(46, 0.85, 5.95);
    expect(dose.net).toBe(25);
    expectPrinted(dose.gross, 29.41, 2);
    expectPrinted(dose.timer ?? Number.NaN, 20.23, 2);
    expect(dose.rest).toBe(21);
  });
});
