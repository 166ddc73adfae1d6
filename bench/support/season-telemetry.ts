import type { SprinklerStatus } from '@pivot/contracts';
import { seededRandom } from './random';

export type SeasonMachine = {
  /** m */
  armLength: number;
  /** Nominal flow while watering, m³/h */
  flow: number;
  /** Top speed of the end tower, m/min */
  topSpeed: number;
};

/** Reports as columns, ready for a bulk insert. */
export type TelemetryColumns = {
  ts: number[];
  status: SprinklerStatus[];
  angle: number[];
  distance: number[];
  speed: number[];
  pressure: number[];
  flow: number[];
};

export type SeasonOptions = {
  machine: SeasonMachine;
  /** ms since the epoch of the first report */
  start: number;
  count: number;
  intervalMs: number;
  chunkSize: number;
  seed: number;
};

/** A stretch the arm travels in one direction: +1 clockwise (front), -1 back. */
type Leg = { direction: 1 | -1; degrees: number };

const END_GUN_REACH_M = 25;
const PRESSURE_BAR = 2.5;
const ALARM_CHANCE_PER_HOUR = 0.01;
const HOUR_MS = 3_600_000;

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/**
 * A season of a centre pivot's telemetry: passes that go round the full circle or back and
 * forth over part of it, clockwise or back, at a speed set per pass, with rests of 2–24 h
 * between them (so it waters about 60 % of the time) and now and then a pressure-loss alarm.
 * The end gun reaches out over the field's corners. Yields the reports in chunks.
 */
export function* seasonTelemetry(options: SeasonOptions): Generator<TelemetryColumns> {
  const { machine, intervalMs } = options;
  const random = seededRandom(options.seed);
  const degreesPerMsAtFullSpeed = ((machine.topSpeed / 60_000) * 360) / (2 * Math.PI * machine.armLength);
  let angle = random.between(0, 360);
  let legs: Leg[] = [];
  let speedPercent = 0;
  let restMs = random.between(0, 12) * HOUR_MS;
  let alarmMs = 0;

  const startPass = () => {
    const direction = random.next() < 0.5 ? 1 : -1;
    const sweep = random.between(60, 180);
    legs =
      random.next() < 0.7
        ? [{ direction, degrees: 360 }]
        : [
            { direction, degrees: sweep },
            { direction: direction === 1 ? -1 : 1, degrees: sweep },
          ];
    speedPercent = Math.round(random.between(30, 100));
  };

  let chunk = emptyColumns();
  for (let index = 0; index < options.count; index += 1) {
    const leg = legs[0];
    let status: SprinklerStatus = 'stop';
    if (alarmMs > 0) {
      status = 'alarm';
      alarmMs -= intervalMs;
    } else if (leg) {
      status = leg.direction === 1 ? 'front' : 'back';
      const step = Math.min(leg.degrees, degreesPerMsAtFullSpeed * (speedPercent / 100) * intervalMs);
      angle = (angle + leg.direction * step + 360) % 360;
      leg.degrees -= step;
      if (leg.degrees <= 0) legs.shift();
      if (legs.length === 0) restMs = random.between(2, 24) * HOUR_MS;
      else if (random.next() < (ALARM_CHANCE_PER_HOUR * intervalMs) / HOUR_MS)
        alarmMs = random.between(20, 90) * 60_000;
    } else {
      restMs -= intervalMs;
      if (restMs <= 0) startPass();
    }
    const watering = status === 'front' || status === 'back';
    const inCorner = Math.abs((angle % 90) - 45) < 20;
    chunk.ts.push(options.start + index * intervalMs);
    chunk.status.push(status);
    chunk.angle.push(round(angle, 2));
    chunk.distance.push(machine.armLength + (watering && inCorner ? END_GUN_REACH_M : 0));
    chunk.speed.push(watering ? speedPercent : 0);
    chunk.pressure.push(watering ? round(PRESSURE_BAR + random.between(-0.05, 0.05), 2) : 0);
    chunk.flow.push(watering ? round(machine.flow * random.between(0.97, 1.03), 1) : 0);
    if (chunk.ts.length === options.chunkSize) {
      yield chunk;
      chunk = emptyColumns();
    }
  }
  if (chunk.ts.length > 0) yield chunk;
}

function emptyColumns(): TelemetryColumns {
  return { ts: [], status: [], angle: [], distance: [], speed: [], pressure: [], flow: [] };
}
