import type { LiveEvent, SprinklerDetail } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '@/features/sprinklers/hooks/use-live-sprinkler';
import { buildSprinklerDetail } from '@/test-factories';
import { sameCardProps } from './same-card-props';

const REPORTED_AT = Date.UTC(2026, 6, 14, 10, 0, 0);
const ARM: Extract<LiveEvent, { type: 'telemetry' }>['currentPosition'] = {
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'LineString',
    coordinates: [
      [17.03, 51.11],
      [17.035, 51.113],
    ],
  },
};

/** A machine watering, as its page holds it. */
const watering: SprinklerDetail = buildSprinklerDetail({
  status: 'front',
  angle: 120,
  distance: 402,
  speed: 60,
  pressure: 2.4,
  flow: 110,
  online: true,
  reportedAt: REPORTED_AT,
});

/** Its next report: the arm a degree on, the same machine otherwise. */
const nextReport = (): Extract<LiveEvent, { type: 'telemetry' }> => ({
  type: 'telemetry',
  timestamp: REPORTED_AT + 1000,
  status: 'front',
  angle: 121,
  distance: 402,
  speed: 61,
  pressure: 2.5,
  flow: 111,
  alarm: null,
  currentPosition: ARM,
});

const props = (sprinkler: SprinklerDetail, selectedProgramId: number | null = null) => ({
  sprinkler,
  selectedProgramId,
});

describe('the cards below the machine page’s map', () => {
  it('are not drawn again for a report that only moves the arm', () => {
    expect(sameCardProps(props(watering), props(applyLiveEvent(watering, nextReport())))).toBe(true);
  });

  it('are drawn again when the machine stops, goes silent or runs another program', () => {
    const stopped = applyLiveEvent(watering, { ...nextReport(), status: 'stop' });
    expect(sameCardProps(props(watering), props(stopped))).toBe(false);
    const silent = applyLiveEvent(watering, { type: 'presence', online: false });
    expect(sameCardProps(props(watering), props(silent))).toBe(false);
    const otherProgram = applyLiveEvent(watering, {
      type: 'program',
      currentProgramData: null,
      currentProgramTimestamp: REPORTED_AT,
    });
    expect(sameCardProps(props(watering), props(otherProgram))).toBe(false);
  });

  it('are drawn again when the machine is read afresh or another program is chosen', () => {
    expect(sameCardProps(props(watering), props({ ...watering, programs: [] }))).toBe(false);
    expect(sameCardProps(props(watering), props(watering, 7))).toBe(false);
  });
});
