import { describe, expect, it } from 'vitest';
import { wedgeProgram } from '../src/fleet-layout';
import { bearingAndDistance, latLngAt, normaliseAngle, positionAt } from '../src/geo';
import {
  type PivotGeometry,
  degreesPerMinute,
  depthOnWedge,
  designFlow,
  sectorAt,
  speedPercentForRate,
  sweepCovers,
  wateringPlan,
} from '../src/irrigation';

const PIVOT: PivotGeometry = { centre: { lat: 52.3, lng: 17 }, armLength: 400, topSpeed: 3, flow: 90 };
const program = (wedges: Parameters<typeof wedgeProgram>[3]) =>
  wedgeProgram(PIVOT.centre, PIVOT.armLength, 'Test', wedges).programData;

describe('geometry', () => {
  it('places points by bearing and distance with [lng, lat] positions', () => {
    const [lng, lat] = positionAt(PIVOT.centre, 90, 1000);
    expect(lat).toBeCloseTo(52.3, 6);
    expect(lng).toBeGreaterThan(17);
    const back = bearingAndDistance(PIVOT.centre, positionAt(PIVOT.centre, 135, 250));
    expect(back.bearing).toBeCloseTo(135, 3);
    expect(back.distance).toBeCloseTo(250, 0);
    expect(latLngAt(PIVOT.centre, 0, 1000).lat).toBeCloseTo(52.309, 3);
  });

  it('normalises angles into [0, 360)', () => {
    expect([360, -10, 725, 0].map(normaliseAngle)).toEqual([0, 350, 5, 0]);
  });
});

describe('watering', () => {
  it('turns the arm at ω = 2Q / (L²·d), as a speed % of the end tower', () => {
    // 1.5 m³/min over 10 mm: ω = 3 / (160 000 · 0.01) rad/min, the end tower at 0.75 m/min of 3.
    expect(speedPercentForRate(PIVOT, 10)).toBeCloseTo(25, 6);
    expect(speedPercentForRate(PIVOT, 20)).toBeCloseTo(12.5, 6);
    expect(speedPercentForRate(PIVOT, 0.1)).toBe(100);
    expect(speedPercentForRate(PIVOT, 1000)).toBe(1);
  });

  it('applies the sector rate: the depth of the water spread over the swept wedge', () => {
    const speed = speedPercentForRate(PIVOT, 10);
    const sweptInAnHour = degreesPerMinute(PIVOT, speed) * 60;
    expect(depthOnWedge(PIVOT.flow, PIVOT.armLength, sweptInAnHour)).toBeCloseTo(10, 6);
  });

  it("derives a pivot's flow from the area its arm waters, as real ones are built", () => {
    // 420 m: a circle of 55.4 ha at 0.9 l/s per hectare; real pivots of that size pump 150–300 m³/h.
    expect(designFlow(420)).toBeGreaterThanOrEqual(150);
    expect(designFlow(420)).toBeLessThanOrEqual(300);
    expect(designFlow(420)).toBeCloseTo(179.6, 1);
    // The area, and so the flow, grows with the square of the arm.
    expect(designFlow(840) / designFlow(420)).toBeCloseTo(4, 9);
    expect(designFlow(210) / designFlow(420)).toBeCloseTo(0.25, 9);
  });

  it('finds the sector under a point by point-in-polygon on [lng, lat]', () => {
    const data = program([
      { name: 'East', rate: 10, from: 0, to: 180 },
      { name: 'West', rate: 20, from: 180, to: 360 },
    ]);
    expect(sectorAt(data, positionAt(PIVOT.centre, 90, 200))?.properties.name).toBe('East');
    expect(sectorAt(data, positionAt(PIVOT.centre, 270, 200))?.properties.name).toBe('West');
    expect(sectorAt(data, positionAt(PIVOT.centre, 90, 1000))).toBeNull();
  });

  it('lets a forbidden zone win where sectors overlap', () => {
    const data = program([
      { name: 'Everything', rate: 10, from: 0, to: 360 },
      { name: 'Power line', rate: -5, from: 80, to: 100 },
    ]);
    expect(sectorAt(data, positionAt(PIVOT.centre, 90, 200))?.properties.name).toBe('Power line');
    expect(sectorAt(data, positionAt(PIVOT.centre, 200, 200))?.properties.name).toBe('Everything');
  });

  it('waters at the sector rate, runs dry at full speed over a forbidden zone or no sector, and at half speed with no program', () => {
    const data = program([
      { name: 'Maize', rate: 10, from: 0, to: 90 },
      { name: 'Ditch', rate: -1, from: 90, to: 180 },
    ]);
    expect(wateringPlan(PIVOT, data, 45)).toEqual({ watering: true, speedPercent: 25, sector: 'Maize' });
    expect(wateringPlan(PIVOT, data, 135)).toEqual({ watering: false, speedPercent: 100, sector: 'Ditch' });
    expect(wateringPlan(PIVOT, data, 270)).toEqual({ watering: false, speedPercent: 100, sector: null });
    expect(wateringPlan(PIVOT, null, 270)).toEqual({ watering: true, speedPercent: 50, sector: null });
  });

  it('knows which bearings a sweep covers, in either direction and across north', () => {
    const clockwise = { startAngle: 350, sweptDegrees: 20, depthMm: 1 };
    expect([355, 0, 9].map((bearing) => sweepCovers(clockwise, bearing))).toEqual([true, true, true]);
    expect(sweepCovers(clockwise, 20)).toBe(false);
    const counterClockwise = { startAngle: 5, sweptDegrees: -10, depthMm: 1 };
    expect([0, 356].map((bearing) => sweepCovers(counterClockwise, bearing))).toEqual([true, true]);
    expect(sweepCovers(counterClockwise, 10)).toBe(false);
  });
});
