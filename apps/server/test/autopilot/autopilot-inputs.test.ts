import type { ProgramData } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { fieldHectares, hourlyRain, sectorShares, seasonWater } from '../../src/modules/autopilot/autopilot-inputs';
import { decisionKey } from '../../src/modules/autopilot/autopilot-watch';
import { decideNext } from '../../src/modules/autopilot';
import { halfCircle } from '../support/fixtures';
import { HOUR, TIME_ZONE, at, input } from './fixtures';

const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 400;
const polygon = (ring: [number, number][]) => ({ type: 'Polygon' as const, coordinates: [ring] });
/** East (0–180°) and West (180–360°), a little beyond the arm. */
const halves: ProgramData = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', geometry: polygon(halfCircle(CENTRE, 0, ARM * 1.2)), properties: { name: 'East', rate: 10 } },
    { type: 'Feature', geometry: polygon(halfCircle(CENTRE, 180, ARM * 1.2)), properties: { name: 'West', rate: 10 } },
  ],
};

describe("the autopilot's inputs", () => {
  it("spreads a forecast day's rain over its hours, 23 of them on the day the clocks go forward", () => {
    const hours = hourlyRain(
      [
        { date: '2026-03-28', referenceEvapotranspiration: 1, rain: 12 },
        { date: '2026-03-29', referenceEvapotranspiration: 1, rain: 23 },
      ],
      TIME_ZONE,
    );
    expect(hours).toHaveLength(24 + 23);
    expect(hours[0]).toEqual({ at: at('00:00', '2026-03-28'), mm: 0.5 });
    expect(hours.slice(24).every((hour) => hour.mm === 1)).toBe(true);
    expect(hours.reduce((sum, hour) => sum + hour.mm, 0)).toBeCloseTo(35, 9);
    expect(hourlyRain(null, TIME_ZONE)).toEqual([]);
  });

  it("counts each sector's share of the circle by the arm's headings, and the season's water by it", () => {
    const shares = sectorShares(halves, { centre: CENTRE, armLength: ARM });
    expect(shares.get('East')).toBeCloseTo(0.5, 2);
    expect(shares.get('West')).toBeCloseTo(0.5, 2);
    const hectares = fieldHectares(ARM);
    expect(hectares).toBeCloseTo(50.27, 2);
    // 30 mm on the east half and 10 mm on the west: 20 mm over the field, 200 m³ a hectare.
    const season = {
      sectors: [
        { name: 'East', applied: [10, 0, 20] },
        { name: 'West', applied: [0, 10] },
      ],
    } as Parameters<typeof seasonWater>[0];
    const used = seasonWater(season, shares, hectares);
    expect(used.usedMm).toBeCloseTo(20, 1);
    expect(used.usedM3).toBeCloseTo(20 * hectares * 10, -1);
  });

  it('gives the same key to the same decision at two looks, and a new one when its news changes', () => {
    const first = decideNext(input({ now: at('19:00'), areas: [{ ...input().areas[0]!, triggerAt: at('21:00') }] }));
    const later = decideNext(
      input({ now: at('19:00') + 10 * 60_000, areas: [{ ...input().areas[0]!, triggerAt: at('21:00') }] }),
    );
    expect(first.kind).toBe('start');
    expect(decisionKey(later)).toBe(decisionKey(first));
    const moved = decideNext(
      input({ now: at('19:00'), areas: [{ ...input().areas[0]!, triggerAt: at('21:00') + HOUR }] }),
    );
    expect(decisionKey(moved)).not.toBe(decisionKey(first));
    const offline = decideNext(input({ machine: { ...input().machine, online: false } }));
    expect(decisionKey(offline)).toBe('refuse:offline');
  });
});
