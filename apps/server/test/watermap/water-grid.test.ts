import { describe, expect, it } from 'vitest';
import { type WaterReport, parseCellKey, waterBetween } from '../../src/modules/watermap/water-grid';

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
});
