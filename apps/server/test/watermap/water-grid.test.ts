import { MACHINE_LIMITS } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type WaterReport,
  type Wedge,
  cellKey,
  parseCellKey,
  sweptWedge,
  waterBetween,
  waterOnWedge,
  wedgePieces,
} from '../../src/modules/watermap/water-grid';

const STEP = 10;

function report(overrides: Partial<WaterReport>): WaterReport {
  return { ts: 0, status: 'front', angle: 0, distance: 400, flow: 90, ...overrides };
}

/** m³ on the grid: mm × cell area. */
function volumeOf(cells: Map<string, number>): number {
  let total = 0;
  for (const depth of cells.values()) total += (depth / 1000) * STEP * STEP;
  return total;
}

describe('water between two reports', () => {
  it.each([
    ['a 5-second step, narrower than a cell', 5_000, 0.05],
    ['a minute', 60_000, 0.6],
    ['ten minutes', 600_000, 6],
  ])('keeps the volume that flowed over %s', (_label, elapsedMs, degrees) => {
    const cells = waterBetween(report({ angle: 10 }), report({ ts: elapsedMs, angle: 10 + degrees }), STEP);
    const volume = 90 * (elapsedMs / 3_600_000);
    expect(volumeOf(cells)).toBeCloseTo(volume, 1);
  });

  it('waters the wedge the arm swept and nothing else', () => {
    const cells = waterBetween(report({ angle: 80 }), report({ ts: 600_000, angle: 100 }), STEP);
    for (const key of cells.keys()) {
      const [x, y] = parseCellKey(key);
      // Near the centre a cell spans many degrees, so cells there touch the wedge from further round.
      if (Math.hypot(x + 0.5, y + 0.5) * STEP < 30) continue;
      const bearing = (Math.atan2(x + 0.5, y + 0.5) * 180) / Math.PI;
      expect(bearing).toBeGreaterThan(70);
      expect(bearing).toBeLessThan(110);
      expect(Math.hypot(x + 0.5, y + 0.5) * STEP).toBeLessThanOrEqual(400 + STEP);
    }
    // Due east, halfway along the arm, the cell is fully inside: depth = volume / wedge area.
    const expected = (90 / 6 / ((Math.PI * 400 * 400 * 20) / 360)) * 1000;
    expect(cells.get('20:0')).toBeCloseTo(expected, 3);
  });

  it('keeps the volume of a thin 5-second spoke, and waters its whole length, in any direction', () => {
    for (let angle = 0; angle < 360; angle += 7.5) {
      const cells = waterBetween(report({ angle }), report({ ts: 5_000, angle: angle + 0.02 }), STEP);
      // Within 0.4 %: a cell left out would take about 2 % of the volume with it.
      expect(volumeOf(cells)).toBeCloseTo(90 * (5_000 / 3_600_000), 3);
      const farthest = Math.max(...[...cells.keys()].map((key) => Math.hypot(...parseCellKey(key)) * STEP));
      expect(farthest).toBeGreaterThan(400 - 2 * STEP);
    }
  });

  it('follows the arm across north and backwards alike', () => {
    const acrossNorth = waterBetween(report({ angle: 355 }), report({ ts: 60_000, angle: 5 }), STEP);
    const backwards = waterBetween(
      report({ status: 'back', angle: 5 }),
      report({ status: 'back', ts: 60_000, angle: 355 }),
      STEP,
    );
    expect(volumeOf(acrossNorth)).toBeCloseTo(1.5, 1);
    expect([...acrossNorth.keys()].sort()).toEqual([...backwards.keys()].sort());
    expect(acrossNorth.has('0:20')).toBe(true);
    expect(acrossNorth.has('-1:20')).toBe(true);
  });

  it('spreads water applied in place over a strip along the arm', () => {
    const cells = waterBetween(
      report({ status: 'stop', angle: 90 }),
      report({ status: 'stop', ts: 60_000, angle: 90 }),
      STEP,
    );
    expect(volumeOf(cells)).toBeCloseTo(1.5, 1);
    expect(cells.size).toBeGreaterThan(40);
  });

  it.each([
    ['no flow', report({}), report({ ts: 60_000, angle: 1 }), 0],
    ['a gap of more than ten minutes', report({}), report({ ts: 11 * 60_000, angle: 3 }), 90],
    ['reports in the wrong order', report({ ts: 60_000 }), report({ ts: 0, angle: 1 }), 90],
  ])('applies nothing for %s', (_label, from, to, flow) => {
    expect(waterBetween({ ...from, flow }, to, STEP).size).toBe(0);
  });

  it.each([
    ['0° to 180° in 5 s at 2,000 m', report({ distance: 2000 }), report({ ts: 5_000, angle: 180, distance: 2000 })],
    ['0° to 90° in 5 s at 400 m', report({}), report({ ts: 5_000, angle: 90 })],
    ['a quarter turn back in a second', report({ angle: 90 }), report({ ts: 1_000, angle: 0 })],
    // 10.5 m/s, but kept up for ten minutes: no arm goes that far between two reports.
    ['a half circle in ten minutes at 2,000 m', report({ distance: 2000 }), report({ ts: 600_000, angle: 180 })],
  ])('counts a pair no arm could have swept as a gap: %s', (_label, from, to) => {
    expect(sweptWedge(from, to, STEP)).toBe('implausible');
    expect(waterBetween(from, to, STEP).size).toBe(0);
  });

  it.each([
    // 1,000 times faster than life, with its 3 m/min end tower at full speed: 50 m/s.
    ['the simulator at its fastest, on the shortest demo arm', 260, 5_000, 50 * 5],
    ['5 s just within the top tip speed at 2,000 m', 2000, 5_000, MACHINE_LIMITS.tipSpeedMPerS * 5 * 0.99],
    ['ten minutes at 2,000 m, just within what the arm sweeps at most', 2000, 600_000, 600 * 0.99],
  ])('keeps the water of the widest honest sweeps: %s', (_label, distance, elapsedMs, metres) => {
    const from = report({ distance, flow: 90 * 1000 });
    const to = report({ distance, ts: elapsedMs, angle: (metres / distance) * (180 / Math.PI) });
    expect(sweptWedge(from, to, STEP)).not.toBe('implausible');
    expect(volumeOf(waterBetween(from, to, STEP)) / (90 * 1000 * (elapsedMs / 3_600_000))).toBeCloseTo(1, 2);
  });

  it.each([
    ['a half circle at 2,000 m', { start: 100, width: 180, radius: 2000, depthMm: 1 }],
    ['a wedge across north', { start: 340, width: 40, radius: 800, depthMm: 2 }],
    ['a thin spoke', { start: 33, width: 0.02, radius: 2000, depthMm: 3 }],
    ['the strip of a short arm watering in place', { start: 0, width: 300, radius: 3, depthMm: 4 }],
  ])('splits %s into pieces of bounded size that water exactly what the whole does', (_label, wedge: Wedge) => {
    const whole = new Map<string, number>();
    waterOnWedge(wedge, STEP, (x, y, depth) => whole.set(cellKey(x, y), depth));
    const pieces = wedgePieces(wedge, STEP, 1000);
    const together = new Map<string, number>();
    for (const piece of pieces) {
      let cells = 0;
      waterOnWedge(piece, STEP, (x, y, depth) => {
        cells += 1;
        together.set(cellKey(x, y), (together.get(cellKey(x, y)) ?? 0) + depth);
      });
      // The cells a piece touches in part along its sides come on top of its area.
      expect(cells).toBeLessThan(2 * 1000);
    }
    expect([...together.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [key, depth] of whole) expect(together.get(key)).toBeCloseTo(depth, 9);
  });
});
