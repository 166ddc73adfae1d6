import { type ProgramData, TARIFF_PRESETS } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  fieldHectares,
  hourlyRain,
  notWateredSince,
  sectorShares,
  seasonWater,
} from '../../src/modules/autopilot/autopilot-inputs';
import { decisionKey } from '../../src/modules/autopilot/autopilot-watch';
import { decideNext, followDecision, startClaimStaleMs } from '../../src/modules/autopilot';
import { halfCircle } from '../support/fixtures';
import { HOUR, NEXT_DAY, TIME_ZONE, area, at, input, rules } from './fixtures';

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

describe("the watcher's steps on a decision", () => {
  const running = { running: true, auto: true, revolutionHours: 20 };
  const resting = { running: false, auto: true, revolutionHours: 20 };

  it('starts a pass in auto, and only says so in suggest', () => {
    const start = decideNext(input({ now: at('19:00') }));
    const auto = followDecision(start, {}, { ...resting, now: at('19:00') });
    expect(auto.act).toBe('start');
    expect(auto.tell).toBe(true);
    expect(auto.memory.run).toEqual({ startedAt: at('19:00'), revolutionHours: 20, areas: ['North'] });
    const suggest = followDecision(start, {}, { ...resting, auto: false, now: at('19:00') });
    expect(suggest).toMatchObject({ act: null, tell: true });
    expect(suggest.memory.run).toBeUndefined();
    // The same decision a look later is no news.
    expect(followDecision(start, suggest.memory, { ...resting, auto: false, now: at('19:10') }).tell).toBe(false);
  });

  it('keeps the start it puts off to the cheap zone, until it starts or has none to put off', () => {
    const given = (time: string) =>
      input({
        now: at(time),
        rules: rules({ tariff: TARIFF_PRESETS.G12 }),
        areas: [area({ triggerAt: at('11:00', NEXT_DAY) })],
      });
    const waiting = followDecision(decideNext(given('16:00')), {}, { ...resting, now: at('16:00') });
    expect(waiting.memory.plannedStartAt).toBe(at('22:00'));
    const started = followDecision(decideNext(given('22:00')), waiting.memory, { ...resting, now: at('22:00') });
    expect(started.act).toBe('start');
    expect(started.memory.plannedStartAt).toBeUndefined();
  });

  it("counts a pass's revolution in the hours it moves: a pause is taken out on resuming", () => {
    const run = { startedAt: at('00:00'), revolutionHours: 20, areas: ['North'] };
    const pause = { kind: 'pause_wind', windMs: 12, maxMs: 10, stopsRunning: true, allowanceWarning: null } as const;
    const paused = followDecision(pause, { run }, { ...running, now: at('10:00') });
    expect(paused.act).toBe('stop');
    expect(paused.memory).toMatchObject({ pausedBy: 'wind', run: { pausedAt: at('10:00') } });
    const resume = { kind: 'resume', windMs: 8, temperatureC: 18, allowanceWarning: null } as const;
    const resumed = followDecision(resume, paused.memory, { ...resting, now: at('13:00') });
    expect(resumed.act).toBe('front');
    expect(resumed.memory.run).toEqual({ startedAt: at('03:00'), revolutionHours: 20, areas: ['North'] });
    const watering = { kind: 'watering', allowanceWarning: null } as const;
    // 20 h of moving from 03:00: not yet at 22:50, done at 23:00.
    expect(followDecision(watering, resumed.memory, { ...running, now: at('22:50') }).act).toBeNull();
    const done = followDecision(watering, resumed.memory, { ...running, now: at('23:00') });
    expect(done.act).toBe('stop');
    expect(done.memory.run).toBeUndefined();
    expect(done.memory.watered).toEqual({ at: at('23:00'), areas: ['North'] });
  });

  it('takes a sector its last pass watered as refilled until the balance holds that day', () => {
    // Dr 38 of RAW 52, the pass's net 34 mm: Dr 4 after it.
    const areas = input().areas;
    const memory = { watered: { at: at('23:00'), areas: ['North'] } };
    const [refilled] = notWateredSince([...areas], memory, '14.07.2026', TIME_ZONE, new Map([['North', 6]]));
    // Due again once the crop has used 48 mm at 6 mm a day: 8 days after the pass.
    expect(refilled).toMatchObject({ depletionMm: 4, triggerAt: at('23:00') + 8 * 24 * HOUR });
    // Without its ETc, not before the next day, when the balance holds the pass.
    expect(notWateredSince([...areas], memory, '14.07.2026', TIME_ZONE)[0]!.triggerAt).toBe(at('00:00', '2026-07-16'));
    // The balance of the pass's own day holds it: the balance's figures stand.
    expect(notWateredSince([...areas], memory, '15.07.2026', TIME_ZONE)).toEqual(areas);
  });

  it('forgets a start claimed by an instance that died once the claim is stale, not before', () => {
    const claimed = {
      startingSince: at('12:00'),
      run: { startedAt: at('12:00'), revolutionHours: 20, areas: ['North'] },
    };
    const notDue = {
      kind: 'not_due',
      triggerAt: null,
      area: null,
      depletionMm: null,
      rawMm: null,
      allowanceWarning: null,
    } as const;
    // Stale once both commands' timeouts (3 s each, and the clocks' tolerance) and a margin have passed.
    const claimStaleMs = startClaimStaleMs(3000);
    expect(claimStaleMs).toBe(23_000);
    const young = followDecision(notDue, claimed, { ...resting, claimStaleMs, now: at('12:00') + 22_000 });
    expect(young).toMatchObject({ memory: claimed, interrupted: false });
    const stale = followDecision(notDue, claimed, { ...resting, claimStaleMs, now: at('12:00') + 23_000 });
    expect(stale.interrupted).toBe(true);
    expect(stale.memory.startingSince).toBeUndefined();
    expect(stale.memory.run).toBeUndefined();
    // The machine never moved: its sectors are as dry as the balance says, not watered by the pass.
    expect(stale.memory.watered).toBeUndefined();
    // A machine found running was started after all: its pass goes on, the autopilot's.
    const started = followDecision({ kind: 'watering', allowanceWarning: null }, claimed, {
      ...running,
      claimStaleMs,
      now: at('12:00') + 23_000,
    });
    expect(started).toMatchObject({ interrupted: false, act: null, memory: { run: claimed.run } });
    expect(started.memory.startingSince).toBeUndefined();
  });
});
