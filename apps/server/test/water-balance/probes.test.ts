import { METRES_PER_DEGREE } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  PROBE_MAX_AGE_MS,
  type ProbeZone,
  cellOf,
  correctByProbes,
  readingsInCells,
  seasonStartDepletion,
} from '../../src/modules/water-balance/probes';
import { depletionFromWaterContent } from '../../src/modules/crop-seasons/root-zone';

const CENTRE = { lat: 52, lng: 17 };
const STEP = 10;
const END_OF_DAY = Date.UTC(2026, 5, 7, 22);
const HOUR_MS = 3_600_000;
/** To 1e-9 mm: the figures are exact by hand, not in binary. */
const rounded = (values: Float64Array) => Array.from(values, (value) => Math.round(value * 1e9) / 1e9);

/** The position of a cell's centre (the inverse of `cellOf`). */
function centreOf(x: number, y: number) {
  return {
    lat: CENTRE.lat + ((y + 0.5) * STEP) / METRES_PER_DEGREE,
    lng: CENTRE.lng + ((x + 0.5) * STEP) / (METRES_PER_DEGREE * Math.cos((CENTRE.lat * Math.PI) / 180)),
  };
}

// θFC 0.30, θWP 0.15, Zr 0.6 m: TAW = 1000 × 0.15 × 0.6 = 90 mm; p 0.5: RAW 45 mm, so probes disagree beyond 22.5 mm.
const zone = (depletion: number[]): ProbeZone => ({
  name: 'Maize',
  cells: [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: -1, y: -1 },
  ],
  depletion: Float64Array.from(depletion),
  soil: { fieldCapacity: 0.3, wiltingPoint: 0.15 },
  rootDepth: 0.6,
  totalAvailableWater: 90,
  readilyAvailableWater: 45,
});

describe("a probe's depletion (Eq. 87)", () => {
  it('is 1000 (θFC − θ) Zr: θFC 0.30, θ 0.22, Zr 0.6 m → 48 mm, held to 0 … TAW', () => {
    const soil = { fieldCapacity: 0.3, wiltingPoint: 0.15 };
    expect(depletionFromWaterContent(soil, 0.22, 0.6)).toBeCloseTo(48, 10);
    expect(depletionFromWaterContent(soil, 0.35, 0.6)).toBe(0); // above field capacity
    expect(depletionFromWaterContent(soil, 0.1, 0.6)).toBeCloseTo(90, 10); // below wilting point: TAW
  });

  it('finds the cell holding a position as the watermap numbers them', () => {
    expect(cellOf(CENTRE, STEP, centreOf(0, 0))).toEqual({ x: 0, y: 0 });
    expect(cellOf(CENTRE, STEP, centreOf(-3, 7))).toEqual({ x: -3, y: 7 });
  });
});

describe('the correction by probes', () => {
  it("moves every cell of the zone by the probe's offset, the moisture taken as % (22 % → 48 mm)", () => {
    const model = zone([30, 40, 85]);
    const { probes, depletions } = correctByProbes(
      [model],
      [{ sensorId: 'P1', ts: new Date(END_OF_DAY - 2 * HOUR_MS), moisture: 22, ...centreOf(1, 0) }],
      { centre: CENTRE, step: STEP },
      END_OF_DAY,
    );
    // The probe's cell: model 40 mm, probe 48 mm, offset +8 mm; 85 + 8 is held to TAW (90).
    expect(probes).toEqual([
      expect.objectContaining({
        id: 'P1',
        zone: 'Maize',
        moisture: 22,
        probeDepletion: 48,
        modelDepletion: 40,
        offset: 8,
        used: true,
      }),
    ]);
    expect(probes[0]!.reason).toBeUndefined();
    expect(rounded(depletions[0]!)).toEqual([38, 48, 90]);
    // The model's array is not changed (the kept state holds it).
    expect(Array.from(model.depletion)).toEqual([30, 40, 85]);
  });

  it('takes the mean offset of several probes, and lists a stale or outside probe without using it', () => {
    const readings = [
      // cell (0, 0): model 30, probe 48 → +18
      { sensorId: 'A', ts: new Date(END_OF_DAY - HOUR_MS), moisture: 22, ...centreOf(0, 0) },
      // cell (1, 0): model 40, probe 1000 × (0.30 − 0.25) × 0.6 = 30 → −10 (48 and 30 are 18 mm apart: they agree)
      { sensorId: 'B', ts: new Date(END_OF_DAY - PROBE_MAX_AGE_MS), moisture: 25, ...centreOf(1, 0) },
      // a day and a second old: stale
      { sensorId: 'C', ts: new Date(END_OF_DAY - PROBE_MAX_AGE_MS - 1000), moisture: 10, ...centreOf(-1, -1) },
      // no cell of the zone there
      { sensorId: 'D', ts: new Date(END_OF_DAY - HOUR_MS), moisture: 10, ...centreOf(5, 5) },
    ];
    const { probes, depletions } = correctByProbes(
      [zone([30, 40, 50])],
      readings,
      { centre: CENTRE, step: STEP },
      END_OF_DAY,
    );
    expect(probes.map((probe) => [probe.id, probe.used, probe.reason, probe.offset])).toEqual([
      ['A', true, undefined, 18],
      ['B', true, undefined, -10],
      ['C', false, 'stale', 40],
      ['D', false, 'outside', null],
    ]);
    expect(probes[3]).toMatchObject({ zone: null, probeDepletion: null, modelDepletion: null });
    // Mean offset (18 − 10) / 2 = +4 mm.
    expect(rounded(depletions[0]!)).toEqual([34, 44, 54]);
  });

  it('follows the probe nearest the model when two of a zone disagree by more than half its RAW', () => {
    const readings = [
      // cell (0, 0): model 30, probe 48 → +18
      { sensorId: 'A', ts: new Date(END_OF_DAY - HOUR_MS), moisture: 22, ...centreOf(0, 0) },
      // cell (1, 0): model 40, probe 1000 × (0.30 − 0.275) × 0.6 = 15 → −25; 48 − 15 = 33 mm > 22.5 mm
      { sensorId: 'B', ts: new Date(END_OF_DAY - HOUR_MS), moisture: 27.5, ...centreOf(1, 0) },
    ];
    const { probes, depletions, disagreements } = correctByProbes(
      [zone([30, 40, 50])],
      readings,
      { centre: CENTRE, step: STEP },
      END_OF_DAY,
    );
    expect(disagreements).toEqual([
      { zone: 'Maize', probes: ['A', 'B'], spread: 33, threshold: 22.5, follows: 'A', reason: 'closest_to_model' },
    ]);
    expect(probes.map((probe) => [probe.id, probe.used, probe.reason])).toEqual([
      ['A', true, undefined],
      ['B', false, 'disagrees'],
    ]);
    // A's offset alone, +18 mm: not the mean (−3.5 mm), a level neither probe measured.
    expect(rounded(depletions[0]!)).toEqual([48, 58, 68]);
  });

  it("follows the farm's recorded reading over a probe nearer the model, and a 10 mm floor below a small RAW", () => {
    const young = { ...zone([30, 40, 50]), readilyAvailableWater: 8 };
    const readings = [
      // cell (0, 0): model 30, probe 1000 × (0.30 − 0.26) × 0.6 = 24 → −6
      { sensorId: 'A', ts: new Date(END_OF_DAY - HOUR_MS), moisture: 26, ...centreOf(0, 0) },
      // cell (1, 0), recorded: model 40, probe 1000 × (0.30 − 0.24) × 0.6 = 36 → −4; 36 − 24 = 12 mm > max(10, 4)
      { sensorId: 'B', ts: new Date(END_OF_DAY - 1), moisture: 24, ...centreOf(1, 0), recorded: true },
    ];
    const { probes, depletions, disagreements } = correctByProbes(
      [young],
      readings,
      { centre: CENTRE, step: STEP },
      END_OF_DAY,
    );
    expect(disagreements).toEqual([
      { zone: 'Maize', probes: ['A', 'B'], spread: 12, threshold: 10, follows: 'B', reason: 'recorded' },
    ]);
    expect(probes[1]).toMatchObject({ id: 'B', used: true, recorded: true });
    expect(probes[0]).toMatchObject({ id: 'A', used: false, reason: 'disagrees' });
    expect(rounded(depletions[0]!)).toEqual([26, 36, 46]);
    // 9 mm apart under the 10 mm floor: they agree, and the mean moves the zone.
    const agreeing = correctByProbes(
      [young],
      [readings[0]!, { ...readings[1]!, moisture: 24.5 }],
      { centre: CENTRE, step: STEP },
      END_OF_DAY,
    );
    expect(agreeing.disagreements).toEqual([]);
  });

  it('leaves a zone without a used probe as the model has it', () => {
    const model = zone([30, 40, 50]);
    const { probes, depletions } = correctByProbes([model], [], { centre: CENTRE, step: STEP }, END_OF_DAY);
    expect(probes).toEqual([]);
    expect(depletions[0]).toBe(model.depletion);
  });
});

describe("a season's start from its probes (Eq. 87 on the first day)", () => {
  const soil = { fieldCapacity: 0.3, wiltingPoint: 0.15 };
  const reading = (sensorId: string, moisture: number, cell = { x: 0, y: 0 }) => ({
    sensorId,
    ts: new Date(END_OF_DAY),
    ...centreOf(cell.x, cell.y),
    moisture,
  });

  it('is the mean of its probes’ depletions with the first day’s roots, each held to 0 … TAW; none: field capacity', () => {
    // Zr 0.15 m: TAW = 1000 × 0.15 × 0.15 = 22.5 mm. 22 %: 1000 × (0.30 − 0.22) × 0.15 = 12 mm.
    expect(seasonStartDepletion([reading('A', 22)], soil, 0.15)).toBeCloseTo(12, 9);
    // 10 % is below the wilting point: held to TAW, 22.5 mm; 35 % above field capacity: 0. Mean (12 + 22.5 + 0) / 3.
    expect(seasonStartDepletion([reading('A', 22), reading('B', 10), reading('C', 35)], soil, 0.15)).toBeCloseTo(
      11.5,
      9,
    );
    expect(seasonStartDepletion([], soil, 0.15)).toBeNull();
  });

  it('takes the probes that stand in the zone’s cells only', () => {
    const inside = reading('IN', 22, { x: 1, y: 0 });
    const outside = reading('OUT', 22, { x: 5, y: 5 });
    const cells = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
    ];
    expect(readingsInCells([inside, outside], cells, { centre: CENTRE, step: STEP })).toEqual([inside]);
  });
});
