import { type ProgramData, sectorUnderArm } from '@pivot/contracts';
import { type LatLng, normaliseAngle } from './geo';

export { sectorAt } from '@pivot/contracts';

/**
 * How a centre pivot turns a program into motion: the volume it pumps spread over the area the
 * arm sweeps gives the depth, so for a sector's rate d (m) and flow Q (m³/min) the arm turns at
 * ω = 2·Q / (L²·d) rad/min, and the end tower runs at ω·L.
 */
export type PivotGeometry = {
  centre: LatLng;
  /** m */
  armLength: number;
  /** Top speed of the end tower, m/min. */
  topSpeed: number;
  /** Nominal flow while watering, m³/h. */
  flow: number;
};

export type WateringPlan = { watering: boolean; speedPercent: number; sector: string | null };

/** A stretch of the arm's travel while watering; sweptDegrees is positive clockwise. */
export type Sweep = { startAngle: number; sweptDegrees: number; depthMm: number };

/**
 * The system capacity centre pivots are built for, l/s per irrigated hectare: 0.8–1 in the
 * temperate climate of Poland and northern Europe (7–9 mm a day at full use, what a crop at
 * its peak drinks). 0.9 l/s·ha is 3.24 m³/h·ha, so a 420 m arm (55.4 ha) pumps about 180 m³/h.
 */
export const DESIGN_CAPACITY_L_S_HA = 0.9;
const M3_PER_HOUR_PER_L_S = 3.6;

/** The nominal flow, m³/h, of a pivot of this arm built for the design capacity: its circle × the capacity. */
export function designFlow(armLength: number): number {
  const hectares = (Math.PI * armLength ** 2) / 10_000;
  return hectares * DESIGN_CAPACITY_L_S_HA * M3_PER_HOUR_PER_L_S;
}

export const NO_PROGRAM_SPEED_PERCENT = 50;
export const DRY_SPEED_PERCENT = 100;
const MIN_SPEED_PERCENT = 1;
const RADIANS = Math.PI / 180;

/** The end tower's speed setting, % of its top speed, that applies rateMm with the given flow. */
export function speedPercentForRate(pivot: PivotGeometry, rateMm: number): number {
  const flowPerMinute = pivot.flow / 60;
  const radiansPerMinute = (2 * flowPerMinute) / (pivot.armLength ** 2 * (rateMm / 1000));
  const percent = ((radiansPerMinute * pivot.armLength) / pivot.topSpeed) * 100;
  return Math.min(100, Math.max(MIN_SPEED_PERCENT, percent));
}

/**
 * Whether to water and how fast to turn with the arm at this angle: the rate of the sector under
 * it; no water at full speed over a forbidden zone, a zero rate or no sector; with no program at
 * all, water at half speed.
 */
export function wateringPlan(pivot: PivotGeometry, programData: ProgramData | null, angle: number): WateringPlan {
  if (!programData) return { watering: true, speedPercent: NO_PROGRAM_SPEED_PERCENT, sector: null };
  const sector = sectorUnderArm(programData, pivot, angle);
  if (!sector || sector.properties.rate <= 0) {
    return { watering: false, speedPercent: DRY_SPEED_PERCENT, sector: sector?.properties.name ?? null };
  }
  return {
    watering: true,
    speedPercent: speedPercentForRate(pivot, sector.properties.rate),
    sector: sector.properties.name,
  };
}

/** Degrees per minute the arm turns when the end tower runs at speedPercent of its top speed. */
export function degreesPerMinute(pivot: PivotGeometry, speedPercent: number): number {
  return ((speedPercent / 100) * pivot.topSpeed) / pivot.armLength / RADIANS;
}

/** Depth (mm) left by a volume (m³) spread over the wedge the arm swept. */
export function depthOnWedge(volumeM3: number, armLength: number, sweptDegrees: number): number {
  const area = (armLength ** 2 / 2) * Math.abs(sweptDegrees) * RADIANS;
  return (volumeM3 / area) * 1000;
}

/** Whether a bearing from the pivot centre lies within the sweep. */
export function sweepCovers(sweep: Sweep, bearing: number): boolean {
  const ahead = sweep.sweptDegrees >= 0 ? bearing - sweep.startAngle : sweep.startAngle - bearing;
  return normaliseAngle(ahead) <= Math.abs(sweep.sweptDegrees);
}
