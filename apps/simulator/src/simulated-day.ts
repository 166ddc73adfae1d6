import { type Motion, TELEMETRY_INTERVAL_MS, type TelemetryMessage } from '@pivot/contracts';
import { wedgeProgram } from './fleet-layout';
import { designFlow } from './irrigation';
import { PivotArm } from './pivot-arm';
import { type Random, createRandom } from './random';

export type SimulatedDayOptions = {
  /** ms since the epoch of the day's first moment. */
  start: number;
  /** ms; a day by default. */
  durationMs?: number;
  /** m; 420 by default. */
  armLength?: number;
  /** The share of the time the arm moves, 0–1; 0.6 by default. */
  movingShare?: number;
  /** Chance of a pressure-loss alarm per hour of watering, 0–1; 0.02 by default. */
  alarmChancePerHour?: number;
  seed?: number;
};

/** A report as a machine publishes it, without the protocol version. */
export type SimulatedReport = Omit<TelemetryMessage, 'v'>;

const DAY_MS = 86_400_000;
const CENTRE = { lat: 52.3, lng: 17 };
/** A controller's timer fires a little late, never early: its reports drift by a few ms each. */
const MAX_TIMER_LATENESS_MS = 3;

/**
 * The reports of one machine over a day, from the simulator's own arm without a broker: passes
 * clockwise or back over a program of three watered sectors and a forbidden zone, rests between
 * them, now and then a pressure-loss alarm that stops the arm until the next pass. It reports as
 * a PivotMachine does: every 5 s moving, every 60 s at rest, at once when a command changes its
 * motion, timestamps unique and a few ms late each time. The same seed gives the same day.
 */
export function simulateDay(options: SimulatedDayOptions): SimulatedReport[] {
  const { start, durationMs = DAY_MS, armLength = 420, movingShare = 0.6, seed = 1 } = options;
  const random = createRandom(seed);
  const program = wedgeProgram(CENTRE, armLength, 'Day', [
    { name: 'North', rate: 12, from: 0, to: 120 },
    { name: 'South-east', rate: 8, from: 120, to: 250 },
    { name: 'Pond', rate: -1, from: 250, to: 290 },
    { name: 'West', rate: 10, from: 290, to: 360 },
  ]);
  const arm = new PivotArm(
    {
      centre: CENTRE,
      armLength,
      topSpeed: 3,
      flow: designFlow(armLength),
      pressure: 2.5,
      timeScale: 1,
      alarmChancePerHour: options.alarmChancePerHour ?? 0.02,
      pressureSafetyDelayMs: 30_000,
    },
    random.fork(),
    { angle: random.between(0, 360), status: 'stop', program: { ...program, uploadedAt: start } },
  );
  const commands = motionCommands(start, durationMs, movingShare, random.fork());
  const end = start + durationMs;
  const reports: SimulatedReport[] = [];
  let advancedTo = start;
  let lastTs = start - 1;
  let next = start;
  let commandIndex = 0;
  while (next < end) {
    const command = commands[commandIndex];
    if (command && command.at <= next) {
      arm.advance(command.at - advancedTo);
      advancedTo = command.at;
      arm.move(command.motion);
      commandIndex += 1;
      next = command.at;
    } else {
      arm.advance(next - advancedTo);
      advancedTo = next;
    }
    lastTs = Math.max(next, lastTs + 1);
    reports.push({ ts: lastTs, ...arm.report() });
    const interval = arm.isMoving ? TELEMETRY_INTERVAL_MS.moving : TELEMETRY_INTERVAL_MS.resting;
    next += interval + random.integer(0, MAX_TIMER_LATENESS_MS);
  }
  return reports;
}

/** Two to four cycles of a rest and a pass, the passes taking movingShare of the time (±10 % each). */
function motionCommands(
  start: number,
  durationMs: number,
  movingShare: number,
  random: Random,
): { at: number; motion: Motion }[] {
  const cycles = random.integer(2, 4);
  const cycleMs = durationMs / cycles;
  const commands: { at: number; motion: Motion }[] = [];
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    const passMs = Math.min(cycleMs, cycleMs * movingShare * random.between(0.9, 1.1));
    const cycleStart = start + cycle * cycleMs;
    if (passMs <= 0) continue;
    commands.push({ at: Math.round(cycleStart + cycleMs - passMs), motion: random.chance(0.5) ? 'front' : 'back' });
    commands.push({ at: Math.round(cycleStart + cycleMs), motion: 'stop' });
  }
  return commands;
}
