import {
  type MachineProgramMessage,
  type Motion,
  type SprinklerStatus,
  TELEMETRY_DECIMALS,
  type TelemetryMessage,
} from '@pivot/contracts';
import { normaliseAngle } from './geo';
import {
  type PivotGeometry,
  type Sweep,
  type WateringPlan,
  degreesPerMinute,
  depthOnWedge,
  wateringPlan,
} from './irrigation';
import type { Random } from './random';

export type CurrentProgram = NonNullable<MachineProgramMessage['program']>;

export type PivotSpec = PivotGeometry & {
  /** Nominal pressure while watering, bar. */
  pressure: number;
  /**
   * Simulated minutes per real minute: the arm turns this much faster. The flow it reports stays
   * the nominal one, what its pump delivers in a real hour, so the server's watermap of a real day
   * holds what a real machine could water in a day (a pass, this much quicker, gets this much less).
   */
  timeScale: number;
  /** Chance of a pressure-loss alarm per simulated hour of watering, 0–1. */
  alarmChancePerHour: number;
  /** Simulated ms the arm runs on low pressure, its water cut, before its low-pressure safety stops it. */
  pressureSafetyDelayMs: number;
};

export type PivotReadings = { speed: number; flow: number; pressure: number };

/** What a telemetry report tells of the arm: all but the protocol version and the time. */
export type ArmReport = Omit<TelemetryMessage, 'v' | 'ts'>;

/** An hour of simulated time: a low-pressure safety that waits longer protects nothing. */
export const MAX_PRESSURE_SAFETY_DELAY_MS = 3_600_000;
/** No step of the arm crosses more than this, so a sector boundary is never overshot by much. */
const MAX_STEP_DEGREES = 1;
const FLOW_NOISE = 0.02;
const PRESSURE_NOISE_BAR = 0.05;
/** What the gauge still reads with the supply cut: the water standing in the pipe. */
const RESIDUAL_PRESSURE_BAR = 0.2;
/** Float slack, in simulated minutes, for the low-pressure safety's delay. */
const SAFETY_SLACK_MINUTES = 1e-9;

/** The mechanics of one centre pivot, without MQTT: where the arm is, how it moves and what it pumps. */
export class PivotArm {
  status: SprinklerStatus;
  angle: number;
  alarm: string | null = null;
  program: CurrentProgram | null;
  /** Whether the water supply is cut (a closed valve, a failed pump, a burst main). */
  waterCut = false;
  /** Simulated minutes the arm has run on low pressure since it last started or the water was cut. */
  private lowPressureMinutes = 0;

  constructor(
    private readonly spec: PivotSpec,
    private readonly random: Random,
    initial: { angle: number; status: SprinklerStatus; program: CurrentProgram | null },
  ) {
    this.status = initial.status;
    this.angle = normaliseAngle(initial.angle);
    this.program = initial.program;
  }

  get isMoving(): boolean {
    return this.status === 'front' || this.status === 'back';
  }

  plan(): WateringPlan {
    return wateringPlan(this.spec, this.program?.programData ?? null, this.angle);
  }

  /**
   * Runs the arm through elapsedMs of real time; returns the stretches it watered on the way. With
   * the water cut it waters nothing, and its low-pressure safety stops it once it has run for
   * pressureSafetyDelayMs of simulated time where it should be watering.
   */
  advance(elapsedMs: number): Sweep[] {
    const sweeps: Sweep[] = [];
    let minutesLeft = (elapsedMs / 60_000) * this.spec.timeScale;
    while (minutesLeft > 0 && this.isMoving) {
      const plan = this.plan();
      const lowPressure = plan.watering && this.waterCut;
      const turnRate = degreesPerMinute(this.spec, plan.speedPercent);
      let minutes = Math.min(minutesLeft, MAX_STEP_DEGREES / turnRate);
      if (lowPressure) minutes = Math.min(minutes, this.safetyMinutesLeft());
      const swept = turnRate * minutes * (this.status === 'front' ? 1 : -1);
      if (plan.watering && !this.waterCut) {
        const volume = (this.spec.flow / 60) * minutes;
        sweeps.push({
          startAngle: this.angle,
          sweptDegrees: swept,
          depthMm: depthOnWedge(volume, this.spec.armLength, swept),
        });
      }
      this.angle = normaliseAngle(this.angle + swept);
      minutesLeft -= minutes;
      if (lowPressure) {
        this.lowPressureMinutes += minutes;
        if (this.safetyMinutesLeft() <= SAFETY_SLACK_MINUTES) this.raise('pressure_loss');
      } else if (plan.watering && this.random.chance(alarmChance(this.spec.alarmChancePerHour, minutes))) {
        this.raise('pressure_loss');
      }
    }
    return sweeps;
  }

  /** A motion command; it also clears an alarm. Started again, the arm's low-pressure safety counts from 0. */
  move(motion: Motion): void {
    this.status = motion;
    this.alarm = null;
    this.lowPressureMinutes = 0;
  }

  /** The supply fails: the arm runs on, but on low pressure and with no flow, until its safety stops it. */
  cutWater(): void {
    if (this.waterCut) return;
    this.waterCut = true;
    this.lowPressureMinutes = 0;
  }

  /** The supply is back: pressure and flow return while the arm moves. An alarm stays until a motion command. */
  restoreWater(): void {
    this.waterCut = false;
    this.lowPressureMinutes = 0;
  }

  /**
   * Real ms until the low-pressure safety stops the arm if it waters all the way, or null when it
   * is not counting (at rest, the water on, or over ground it does not water).
   */
  msUntilPressureSafety(): number | null {
    if (!this.isMoving || !this.waterCut || !this.plan().watering) return null;
    return (this.safetyMinutesLeft() / this.spec.timeScale) * 60_000;
  }

  private safetyMinutesLeft(): number {
    return Math.max(0, this.spec.pressureSafetyDelayMs / 60_000 - this.lowPressureMinutes);
  }

  private raise(alarm: string): void {
    this.status = 'alarm';
    this.alarm = alarm;
  }

  /**
   * What the gauges show now: the nominal flow, not scaled with time (see timeScale). With the
   * water cut, a moving arm that should water shows no flow and only the pressure left in its pipe.
   */
  readings(): PivotReadings {
    const plan = this.plan();
    const pumping = this.isMoving && plan.watering;
    if (pumping && this.waterCut) {
      return {
        speed: plan.speedPercent,
        flow: 0,
        pressure: RESIDUAL_PRESSURE_BAR + this.random.between(-PRESSURE_NOISE_BAR, PRESSURE_NOISE_BAR),
      };
    }
    return {
      speed: plan.speedPercent,
      flow: pumping ? this.spec.flow * this.random.between(1 - FLOW_NOISE, 1 + FLOW_NOISE) : 0,
      pressure: pumping ? this.spec.pressure + this.random.between(-PRESSURE_NOISE_BAR, PRESSURE_NOISE_BAR) : 0,
    };
  }

  /** What the machine reports of its arm now, at the protocol's precision (TELEMETRY_DECIMALS). */
  report(): ArmReport {
    const { speed, flow, pressure } = this.readings();
    return {
      status: this.status,
      angle: normaliseAngle(round(this.angle, TELEMETRY_DECIMALS.angle)),
      distance: round(this.spec.armLength, TELEMETRY_DECIMALS.distance),
      speed: round(speed, TELEMETRY_DECIMALS.speed),
      pressure: round(pressure, TELEMETRY_DECIMALS.pressure),
      flow: round(flow, TELEMETRY_DECIMALS.flow),
      ...(this.alarm ? { alarm: this.alarm } : {}),
    };
  }
}

function alarmChance(chancePerHour: number, minutes: number): number {
  return 1 - (1 - chancePerHour) ** (minutes / 60);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
