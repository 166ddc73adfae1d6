/**
 * A program from the advice that is safe to send (docs/advice.md, "A program from the advice"):
 * the machine's loaded program walked the way the arm goes from where it is, each sector's rate
 * decided when the arm gets to it.
 */
import {
  type CurrentProgramData,
  type LatLng,
  type ProgramData,
  type ProgramFromAdviceSector,
  type Sector,
  type WaterBalanceArea,
  isForbiddenZone,
  sectorUnderArm,
} from '@pivot/contracts';
import { irrigationDoses } from '../water-balance';

/** The arm's walk is timed in steps of this many degrees: a few minutes of a revolution each. */
const WALK_STEP_DEGREES = 0.5;
/** The largest rate a sector may have (the program contract's). */
const MAX_RATE = 1000;
const DAY_HOURS = 24;

export type ArmPosition = {
  /** Heading of the arm, degrees clockwise from north. */
  angle: number;
  /** front: clockwise; back: counter-clockwise. */
  direction: 'front' | 'back';
};

/** The machine's pace at 100 %: the depth it applies and the hours a circle takes. */
export type MachinePace = { depthAtFullSpeed: number; hoursPerCircle: number };

export type SafeProgramInput = {
  program: CurrentProgramData;
  pivot: { centre: LatLng; armLength: number };
  arm: ArmPosition;
  pace: MachinePace;
  /** The balance's sectors (its `date` is the day before today). */
  advice: readonly WaterBalanceArea[];
  /** Hours of today gone by now, local time: a due date's start is that much nearer. */
  hoursIntoToday: number;
  /** Hours past the arm's arrival a sector may be due and still be watered on this pass. */
  marginHours: number;
  /** The balance's day, dd.mm.yyyy: its sectors' due dates count days from the day after it. */
  balanceDate: string;
};

export type SafeProgram = {
  /** In the order the arm reaches them. */
  sectors: ProgramFromAdviceSector[];
  revolutionHours: number;
  /** null: no sector is due by the time the arm gets there, so there is nothing to send. */
  programData: ProgramData | null;
};

const tenth = (value: number) => Math.round(value * 10) / 10;

function dayNumberOfDotted(dotted: string): number {
  const [day, month, year] = dotted.split('.').map(Number);
  return Date.UTC(year!, month! - 1, day!) / 86_400_000;
}

/**
 * The rate a sector gets when the arm reaches it `arrivalHours` from now. Due (its next irrigation
 * starts before the arrival plus the margin): the gross dose that refills the depletion expected
 * on the day of the arrival. Not due: a dry pass. No advice for it: its rate kept, and said so.
 */
function decideRate(
  sector: Sector,
  arrivalHours: number,
  input: SafeProgramInput,
  adviceOf: ReadonlyMap<string, WaterBalanceArea>,
): ProgramFromAdviceSector {
  const { name, rate } = sector.properties;
  const advice = adviceOf.get(name);
  const decided = { name, nextIrrigation: advice?.nextIrrigation ?? null, arrivalHours, restDose: null };
  if (isForbiddenZone(sector)) return { ...decided, rate, source: 'forbidden' };
  if (advice === undefined) return { ...decided, rate, source: 'kept' };
  const dryPass = { ...decided, rate: 0, source: 'dry_pass' } as const;
  if (advice.nextIrrigation === null || advice.netDose === null || advice.grossDose === null) return dryPass;
  // Day 0 of the series is today, the day after the balance's.
  const dueDay = dayNumberOfDotted(advice.nextIrrigation) - dayNumberOfDotted(input.balanceDate) - 1;
  const hoursUntilDue = dueDay * DAY_HOURS - input.hoursIntoToday;
  if (hoursUntilDue > arrivalHours + input.marginHours || advice.expectedDepletion.length === 0) return dryPass;
  const arrivalDay = Math.floor((input.hoursIntoToday + arrivalHours) / DAY_HOURS);
  const expected = advice.expectedDepletion[Math.min(arrivalDay, advice.expectedDepletion.length - 1)]!;
  const pass = irrigationDoses(expected, advice.netDose / advice.grossDose, null);
  const gross = tenth(Math.min(MAX_RATE, pass.grossDose));
  return gross > 0 ? { ...decided, rate: gross, source: 'advised', restDose: tenth(pass.restDose) } : dryPass;
}

/**
 * Walks the arm once round from its heading, its way, at the program's rates: each sector's rate
 * is decided on reaching it (`decideRate`), and the time to cross each step follows that rate
 * (a rate above the depth at 100 % slows the arm in proportion; a dry step, a forbidden zone or no
 * sector is crossed at 100 %). A sector the arm's probe never meets is decided at the walk's end.
 */
export function safeProgramFromAdvice(input: SafeProgramInput): SafeProgram {
  const { program, pivot, arm, pace } = input;
  const adviceOf = new Map(input.advice.map((area) => [area.name, area]));
  const decided = new Map<string, ProgramFromAdviceSector>();
  const sign = arm.direction === 'front' ? 1 : -1;
  let hours = 0;
  for (let step = 0; step * WALK_STEP_DEGREES < 360; step += 1) {
    const heading = (((arm.angle + sign * step * WALK_STEP_DEGREES) % 360) + 360) % 360;
    const sector = sectorUnderArm(program, pivot, heading);
    let rate = 0;
    if (sector !== null) {
      const name = sector.properties.name;
      if (!decided.has(name)) decided.set(name, decideRate(sector, hours, input, adviceOf));
      rate = decided.get(name)!.rate;
    }
    hours += (WALK_STEP_DEGREES / 360) * pace.hoursPerCircle * Math.max(1, rate / pace.depthAtFullSpeed);
  }
  for (const sector of program.features) {
    if (!decided.has(sector.properties.name)) {
      decided.set(sector.properties.name, decideRate(sector, hours, input, adviceOf));
    }
  }
  const sectors = [...decided.values()];
  const watered = sectors.some((sector) => sector.source === 'advised');
  return {
    sectors,
    revolutionHours: hours,
    programData: watered
      ? {
          type: 'FeatureCollection',
          bbox: program.bbox,
          features: program.features.map((sector) => ({
            ...sector,
            properties: { ...sector.properties, rate: decided.get(sector.properties.name)!.rate },
          })),
        }
      : null,
  };
}
