import {
  type CurrentProgramData,
  type Sector,
  type WaterBalanceArea,
  ProgramDataSchema,
  positionAt,
} from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { expectedDepletions } from '../../src/modules/water-balance/irrigation-advice';
import { type SafeProgramInput, safeProgramFromAdvice } from '../../src/modules/advice/program-from-advice';

const centre = { lat: 52.3, lng: 17.2 };
const ARM = 300;

/** A pie wedge from `from` to `to` degrees clockwise from north, its arc a corner every 5°. */
function wedge(name: string, from: number, to: number, rate: number): Sector {
  const arc: [number, number][] = [];
  for (let bearing = from; bearing < to; bearing += 5) arc.push(positionAt(centre, bearing, ARM * 1.05));
  arc.push(positionAt(centre, to, ARM * 1.05));
  const pivot: [number, number] = [centre.lng, centre.lat];
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [[pivot, ...arc, pivot]] },
    properties: { name, rate },
  };
}

/** A sector of the balance (27.11.2026: day 0 of its series is 28.11) with its doses at 80 % efficiency. */
function advised(name: string, nextIrrigation: string | null, netDose: number, expectedDepletion: number[]) {
  return {
    name,
    taw: 60,
    raw: 30,
    depletion: expectedDepletion[0] ?? 0,
    depletionMin: 0,
    depletionMax: 0,
    ks: 1,
    etc: 4,
    et0: 4,
    rain: 0,
    applied: 0,
    nextIrrigation,
    netDose: nextIrrigation === null ? null : netDose,
    grossDose: nextIrrigation === null ? null : netDose / 0.8,
    percentTimer: null,
    restDose: null,
    passes: null,
    expectedDepletion: nextIrrigation === null ? [] : expectedDepletion,
  } satisfies WaterBalanceArea;
}

// Boundaries a quarter degree off the walk's half-degree steps, so no step is on an edge.
const program: CurrentProgramData = {
  type: 'FeatureCollection',
  name: 'Lato',
  features: [
    wedge('Kukurydza', 0.25, 120.25, 14),
    wedge('Buraki', 120.25, 240.25, 14),
    wedge('Droga', 240.25, 270.25, -1),
    wedge('Pszenica', 270.25, 330.25, 14),
    wedge('Sad', 330.25, 360.25, 9),
  ],
};

/** 06:00 on 28.11.2026; the arm at 10°, going front; 5 mm and 12 h a circle at 100 %; a day's margin. */
const input = (advice: WaterBalanceArea[]): SafeProgramInput => ({
  program,
  pivot: { centre, armLength: ARM },
  arm: { angle: 10, direction: 'front' },
  pace: { depthAtFullSpeed: 5, hoursPerCircle: 12 },
  advice,
  hoursIntoToday: 6,
  marginHours: 24,
  balanceDate: '27.11.2026',
});

/** Hours to cross `degrees` at `rate` mm: 12 h a circle at 100 %, slower in proportion above 5 mm. */
const crossing = (degrees: number, rate: number) => (degrees / 360) * 12 * Math.max(1, rate / 5);

describe('the program from the advice', () => {
  it('waters only the sectors due when the arm gets there, each with the depletion expected then', () => {
    const safe = safeProgramFromAdvice(
      input([
        // Due today: at once, 32 mm expected today (not its far due's dose). One pass gives at most
        // 25 mm net → 25 / 0.8 = 31.25 → 31.3 mm; the 7 mm left wait for the next pass.
        advised('Kukurydza', '28.11.2026', 32, [32, 36, 40]),
        // Due 30.11 (42 h from now); the arm comes after crossing Kukurydza's 110.5° of steps at
        // 31.3 mm (6.26 × slower): 23.06 h, tomorrow, within the day's margin. Expected tomorrow:
        // 18 mm → 22.5 mm, not the 27.5 mm of its due date.
        advised('Buraki', '30.11.2026', 22, [14, 18, 22, 26]),
        // Due 05.12 (162 h from now): far beyond the arm's arrival and the margin: a dry pass.
        advised('Pszenica', '05.12.2026', 30, [2, 6, 10]),
        // Sad has no numbers: its 9 mm are kept, and flagged.
      ]),
    );
    const atBuraki = crossing(110.5, 31.3);
    const atDroga = atBuraki + crossing(120, 22.5);
    const atPszenica = atDroga + crossing(30, 0);
    const atSad = atPszenica + crossing(60, 0);
    expect(atBuraki).toBeCloseTo(23.058, 3);
    expect(safe.sectors).toEqual([
      {
        name: 'Kukurydza',
        nextIrrigation: '28.11.2026',
        arrivalHours: 0,
        rate: 31.3,
        source: 'advised',
        restDose: 7,
      },
      {
        name: 'Buraki',
        nextIrrigation: '30.11.2026',
        arrivalHours: expect.closeTo(atBuraki, 6),
        rate: 22.5,
        source: 'advised',
        restDose: 0,
      },
      {
        name: 'Droga',
        nextIrrigation: null,
        arrivalHours: expect.closeTo(atDroga, 6),
        rate: -1,
        source: 'forbidden',
        restDose: null,
      },
      {
        name: 'Pszenica',
        nextIrrigation: '05.12.2026',
        arrivalHours: expect.closeTo(atPszenica, 6),
        rate: 0,
        source: 'dry_pass',
        restDose: null,
      },
      {
        name: 'Sad',
        nextIrrigation: null,
        arrivalHours: expect.closeTo(atSad, 6),
        rate: 9,
        source: 'kept',
        restDose: null,
      },
    ]);
    // Sad's 30° at 9 mm, then Kukurydza again from 0.5° to 9.5° at 31.3 mm.
    expect(safe.revolutionHours).toBeCloseTo(atSad + crossing(30, 9) + crossing(9.5, 31.3), 6);
    expect(ProgramDataSchema.parse(safe.programData)).toBeTruthy();
    expect(safe.programData!.features.map((sector) => sector.properties)).toEqual([
      { name: 'Kukurydza', rate: 31.3 },
      { name: 'Buraki', rate: 22.5 },
      { name: 'Droga', rate: -1 },
      { name: 'Pszenica', rate: 0 },
      { name: 'Sad', rate: 9 },
    ]);
    expect(safe.programData!.features[0]!.geometry).toEqual(program.features[0]!.geometry);
  });

  it('going back, the arm meets the sectors the other way round, and a dose due later waits', () => {
    const safe = safeProgramFromAdvice({
      ...input([advised('Kukurydza', '28.11.2026', 32, [32, 36, 40]), advised('Sad', '29.11.2026', 20, [16, 20])]),
      arm: { angle: 10, direction: 'back' },
      marginHours: 0,
    });
    // Back from 10°: Kukurydza at once (31.3 mm, one pass's 25 mm net), Sad after 9.5°...10° of
    // it; Sad is due in 18 h, the arm there in about 2.1 h, and no margin: a dry pass.
    expect(safe.sectors.map((sector) => [sector.name, sector.source, sector.rate])).toEqual([
      ['Kukurydza', 'advised', 31.3],
      ['Sad', 'dry_pass', 0],
      ['Pszenica', 'kept', 14],
      ['Droga', 'forbidden', -1],
      ['Buraki', 'kept', 14],
    ]);
  });

  it('makes no program when nothing is due by the time the arm gets there', () => {
    const safe = safeProgramFromAdvice(
      input([
        advised('Kukurydza', '31.01.2027', 72.1, [1.7, 3.4, 5.1]),
        advised('Buraki', '24.12.2026', 29.5, [5.3, 7, 8.7]),
        advised('Pszenica', null, 0, []),
      ]),
    );
    expect(safe.programData).toBeNull();
    expect(safe.sectors.filter((sector) => sector.source === 'advised')).toEqual([]);
    expect(safe.sectors.find((sector) => sector.name === 'Kukurydza')).toMatchObject({ rate: 0, source: 'dry_pass' });
    // The whole circle dry but Sad's kept 9 mm (30° at 1.8 × slower): 12 h + 0.8 h.
    expect(safe.revolutionHours).toBeCloseTo(12 + crossing(30, 9) - crossing(30, 0), 6);
  });
});

describe('the depletion expected on the coming days', () => {
  it("adds each day's ETc less its rain, and past RAW only Ks · ETc (Eq. 84)", () => {
    const outlook = {
      cropEvapotranspiration: [4, 4, 4, 4],
      effectiveRain: [0, 6, 0, 0],
      totalAvailableWater: [40, 40, 40, 40],
      readilyAvailableWater: [20, 20, 20, 20],
    };
    expect(expectedDepletions(10, outlook)).toEqual([10, 8, 12, 16]);
    // 18 → 22 (past RAW) → Ks = (40 − 22) / (40 − 20) = 0.9: 22 + 3.6.
    const stressed = expectedDepletions(18, { ...outlook, effectiveRain: [0, 0, 0, 0] }, 3);
    expect(stressed[0]).toBe(18);
    expect(stressed[1]).toBe(22);
    expect(stressed[2]).toBeCloseTo(25.6, 9);
  });
});
