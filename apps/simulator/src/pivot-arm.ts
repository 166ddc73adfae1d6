import type { MachineProgramMessage, Motion, SprinklerStatus } from '@pivot/contracts';
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
  /** Simulated minutes per real minute: motion and flow both run this much faster. */
  timeScale: number;
  /** Chance of a pressure-loss alarm per simulated hour of watering, 0–1. */
  alarmChancePerHour: number;
};

export type PivotReadings = { speed: number; flow: number; pressure: number };

/** No step of the arm crosses more than this, so a sector boundary is never overshot by much. */
const MAX_STEP_DEGREES = 1;
const FLOW_NOISE = 0.02;
const PRESSURE_NOISE_BAR = 0.05;

/** The mechanics of one centre pivot, without MQTT: where the arm is, how it moves and what it pumps. */
export class PivotArm {
  status: SprinklerStatus;
  angle: number;
  alarm: string | null = null;
  program: CurrentProgram | null;

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

  /** Runs the arm through elapsedMs of real time; returns the stretches it watered on the way. */
  advance(elapsedMs: number): Sweep[] {
    const sweeps: Sweep[] = [];
    let minutesLeft = (elapsedMs / 60_000) * this.spec.timeScale;
    while (minutesLeft > 0 && this.isMoving) {
      const plan = this.plan();
      const turnRate = degreesPerMinute(this.spec, plan.speedPercent);
      const minutes = Math.min(minutesLeft, MAX_STEP_DEGREES / turnRate);
      const swept = turnRate * minutes * (this.status === 'front' ? 1 : -1);
      if (plan.watering) {
        const volume = (this.spec.flow / 60) * minutes;
        sweeps.push({
          startAngle: this.angle,
          sweptDegrees: swept,
          depthMm: depthOnWedge(volume, this.spec.armLength, swept),
        });
      }
      this.angle = normaliseAngle(this.angle + swept);
      minutesLeft -= minutes;
      if (plan.watering && this.random.chance(alarmChance(this.spec.alarmChancePerHour, minutes))) {
        this.status = 'alarm';
        this.alarm = 'pressure_loss';
      }
    }
    return sweeps;
  }

  /** A motion command; it also clears an alarm. */
  move(motion: Motion): void {
    this.status = motion;
    this.alarm = null;
  }

  /**
   * What the gauges show now. The flow is scaled with time, so the depth the server derives from
   * flow × real time over the wedge swept in that real time stays the simulated depth.
   */
  readings(): PivotReadings {
    const plan = this.plan();
    const pumping = this.isMoving && plan.watering;
    return {
      speed: plan.speedPercent,
      flow: pumping ? this.spec.flow * this.spec.timeScale * this.random.between(1 - FLOW_NOISE, 1 + FLOW_NOISE) : 0,
      pressure: pumping ? this.spec.pressure + this.random.between(-PRESSURE_NOISE_BAR, PRESSURE_NOISE_BAR) : 0,
    };
  }
}

function alarmChance(chancePerHour: number, minutes: number): number {
  return 1 - (1 - chancePerHour) ** (minutes / 60);
}
