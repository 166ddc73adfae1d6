import type { SprinklerStatus } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { wedgeProgram } from '../src/fleet-layout';
import { type CurrentProgram, PivotArm, type PivotSpec } from '../src/pivot-arm';
import { createRandom } from '../src/random';

const SPEC: PivotSpec = {
  centre: { lat: 52.3, lng: 17 },
  armLength: 400,
  topSpeed: 3,
  flow: 90,
  pressure: 2.5,
  timeScale: 1,
  alarmChancePerHour: 0,
  pressureSafetyDelayMs: 30_000,
};
const MINUTE = 60_000;
const TEN_MM_EVERYWHERE: CurrentProgram = {
  ...wedgeProgram(SPEC.centre, SPEC.armLength, 'Ten', [{ name: 'All', rate: 10, from: 0, to: 360 }]),
  uploadedAt: 0,
};
/** No program: half speed, 1.5 m/min at the end of 400 m, so 0.2148°/min. */
const HALF_SPEED_DEGREES_PER_MINUTE = (1.5 / 400) * (180 / Math.PI);

function arm(
  status: SprinklerStatus,
  angle: number,
  overrides: Partial<PivotSpec> = {},
  program: CurrentProgram | null = null,
) {
  return new PivotArm({ ...SPEC, ...overrides }, createRandom(1), { angle, status, program });
}

describe('pivot arm', () => {
  it('turns clockwise on front and wraps past 360°', () => {
    const pivot = arm('front', 359.9);
    pivot.advance(10 * MINUTE);
    expect(pivot.angle).toBeCloseTo(359.9 + 10 * HALF_SPEED_DEGREES_PER_MINUTE - 360, 6);
    expect(pivot.angle).toBeGreaterThanOrEqual(0);
  });

  it('turns counter-clockwise on back and wraps below 0°', () => {
    const pivot = arm('back', 0.5);
    pivot.advance(10 * MINUTE);
    expect(pivot.angle).toBeCloseTo(0.5 - 10 * HALF_SPEED_DEGREES_PER_MINUTE + 360, 6);
    expect(pivot.angle).toBeLessThan(360);
  });

  it('stays put on stop and pumps nothing', () => {
    const pivot = arm('stop', 42);
    expect(pivot.advance(60 * MINUTE)).toEqual([]);
    expect(pivot.angle).toBe(42);
    expect(pivot.readings()).toMatchObject({ flow: 0, pressure: 0 });
  });

  it('runs motion faster by the time scale, its simulated depth the rate, its reported flow still the nominal', () => {
    const slow = arm('front', 0, {}, TEN_MM_EVERYWHERE);
    const fast = arm('front', 0, { timeScale: 10 }, TEN_MM_EVERYWHERE);
    const slowSweeps = slow.advance(6 * MINUTE);
    const fastSweeps = fast.advance(6 * MINUTE);
    expect(fast.angle).toBeCloseTo(slow.angle * 10, 6);
    // A real hour's pumping is a real machine's, whatever the time scale: the watermap of a day stays real.
    expect(fast.readings().flow / slow.readings().flow).toBeCloseTo(1, 1);
    expect(fast.readings().flow).toBeGreaterThanOrEqual(90 * 0.98);
    expect(fast.readings().flow).toBeLessThanOrEqual(90 * 1.02);
    for (const sweep of [...slowSweeps, ...fastSweeps]) expect(sweep.depthMm).toBeCloseTo(10, 6);
    expect(fast.readings().speed).toBe(25);
  });

  it('reports a flow near nominal and a pressure of 2–3 bar while watering', () => {
    const pivot = arm('front', 0, {}, TEN_MM_EVERYWHERE);
    for (let report = 0; report < 50; report += 1) {
      const { flow, pressure } = pivot.readings();
      expect(flow).toBeGreaterThanOrEqual(90 * 0.98);
      expect(flow).toBeLessThanOrEqual(90 * 1.02);
      expect(pressure).toBeGreaterThan(2);
      expect(pressure).toBeLessThan(3);
    }
  });

  it('crosses a forbidden zone dry at full speed, then slows to water the next sector', () => {
    const program: CurrentProgram = {
      ...wedgeProgram(SPEC.centre, SPEC.armLength, 'Ditch', [
        { name: 'Ditch', rate: -1, from: 0, to: 10 },
        { name: 'Crop', rate: 10, from: 10, to: 360 },
      ]),
      uploadedAt: 0,
    };
    const pivot = arm('front', 1, {}, program);
    expect(pivot.readings()).toMatchObject({ speed: 100, flow: 0, pressure: 0 });
    // At full speed, 0.43°/min: 20 minutes carry the arm from 1° across the zone's edge at 10°.
    const sweeps = pivot.advance(30 * MINUTE);
    expect(pivot.angle).toBeGreaterThan(10);
    expect(pivot.readings().speed).toBe(25);
    expect(sweeps.every((sweep) => sweep.startAngle >= 9)).toBe(true);
    expect(sweeps.length).toBeGreaterThan(0);
  });

  it('stops with a pressure-loss alarm, and a motion command clears it', () => {
    const pivot = arm('front', 0, { alarmChancePerHour: 1 });
    pivot.advance(MINUTE);
    expect(pivot.status).toBe('alarm');
    expect(pivot.alarm).toBe('pressure_loss');
    const angle = pivot.angle;
    pivot.advance(10 * MINUTE);
    expect(pivot.angle).toBe(angle);
    expect(pivot.readings()).toMatchObject({ flow: 0, pressure: 0 });
    pivot.move('back');
    expect(pivot.status).toBe('back');
    expect(pivot.alarm).toBeNull();
  });

  it('never raises an alarm while running dry', () => {
    const dry: CurrentProgram = {
      ...wedgeProgram(SPEC.centre, SPEC.armLength, 'Dry', [{ name: 'Fallow', rate: 0, from: 0, to: 360 }]),
      uploadedAt: 0,
    };
    const pivot = arm('front', 0, { alarmChancePerHour: 1 }, dry);
    pivot.advance(60 * MINUTE);
    expect(pivot.status).toBe('front');
  });

  describe('with the water cut', () => {
    const SECOND = 1000;

    it('runs on at its speed with no flow and the pressure left in the pipe, watering nothing', () => {
      const pivot = arm('front', 0, {}, TEN_MM_EVERYWHERE);
      pivot.cutWater();
      const angle = pivot.angle;
      expect(pivot.advance(20 * SECOND)).toEqual([]);
      expect(pivot.status).toBe('front');
      expect(pivot.angle).toBeGreaterThan(angle);
      for (let report = 0; report < 20; report += 1) {
        const { speed, flow, pressure } = pivot.readings();
        expect(speed).toBe(25);
        expect(flow).toBe(0);
        expect(pressure).toBeGreaterThan(0.1);
        expect(pressure).toBeLessThan(0.3);
      }
    });

    it('is stopped by its low-pressure safety after the delay, at the angle it reached then', () => {
      const pivot = arm('front', 0, {}, TEN_MM_EVERYWHERE);
      const twin = arm('front', 0, {}, TEN_MM_EVERYWHERE);
      pivot.cutWater();
      expect(pivot.msUntilPressureSafety()).toBe(30 * SECOND);
      pivot.advance(29 * SECOND);
      expect(pivot.status).toBe('front');
      expect(pivot.msUntilPressureSafety()).toBeCloseTo(SECOND, 6);
      pivot.advance(10 * SECOND);
      expect(pivot).toMatchObject({ status: 'alarm', alarm: 'pressure_loss' });
      expect(pivot.readings()).toMatchObject({ flow: 0, pressure: 0 });
      twin.advance(30 * SECOND);
      expect(pivot.angle).toBeCloseTo(twin.angle, 9);
      expect(pivot.msUntilPressureSafety()).toBeNull();
    });

    it('counts the delay in simulated time', () => {
      const pivot = arm('front', 0, { timeScale: 20 }, TEN_MM_EVERYWHERE);
      pivot.cutWater();
      expect(pivot.msUntilPressureSafety()).toBe(1.5 * SECOND);
      pivot.advance(1.4 * SECOND);
      expect(pivot.status).toBe('front');
      pivot.advance(0.2 * SECOND);
      expect(pivot.status).toBe('alarm');
    });

    it('does not count ground it does not water, nor time at rest', () => {
      const fallow: CurrentProgram = {
        ...wedgeProgram(SPEC.centre, SPEC.armLength, 'Fallow', [{ name: 'Fallow', rate: 0, from: 0, to: 360 }]),
        uploadedAt: 0,
      };
      const crossing = arm('front', 0, {}, fallow);
      crossing.cutWater();
      expect(crossing.msUntilPressureSafety()).toBeNull();
      crossing.advance(10 * MINUTE);
      expect(crossing.status).toBe('front');
      expect(crossing.readings()).toMatchObject({ flow: 0, pressure: 0 });

      const resting = arm('stop', 0, {}, TEN_MM_EVERYWHERE);
      resting.cutWater();
      resting.advance(10 * MINUTE);
      expect(resting.msUntilPressureSafety()).toBeNull();
      resting.move('front');
      expect(resting.msUntilPressureSafety()).toBe(30 * SECOND);
    });

    it('trips again after the delay when started with the water still cut; restored, it waters again', () => {
      const pivot = arm('front', 0, {}, TEN_MM_EVERYWHERE);
      pivot.cutWater();
      pivot.advance(MINUTE);
      expect(pivot.status).toBe('alarm');
      pivot.move('back');
      pivot.advance(20 * SECOND);
      expect(pivot.status).toBe('back');
      pivot.advance(20 * SECOND);
      expect(pivot.status).toBe('alarm');

      pivot.restoreWater();
      expect(pivot.status).toBe('alarm');
      pivot.move('front');
      expect(pivot.advance(MINUTE).length).toBeGreaterThan(0);
      expect(pivot.status).toBe('front');
      expect(pivot.readings().flow).toBeGreaterThan(80);
      expect(pivot.readings().pressure).toBeGreaterThan(2);
    });
  });
});
