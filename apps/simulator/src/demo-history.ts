import type { Motion } from '@pivot/contracts';
import {
  DEMO_MACHINES,
  type DemoMachine,
  PROBES_PER_AREA,
  demoProbes,
  demoStations,
  inSeason,
  lastEmergence,
} from './demo-farm';
import { wetProbesUnder } from './fleet';
import type { SensorSite } from './fleet-layout';
import { normaliseAngle } from './geo';
import { PivotArm } from './pivot-arm';
import { type Random, createRandom, mixSeed } from './random';
import type { SimulatedReport } from './simulated-day';
import { SoilMoisture, layerMm } from './soil-sensor';
import { type WeatherReading, WeatherModel } from './weather-model';

/** What a demo station reported over the past: its readings, on the hour. */
export type StationHistory = { stationId: string; machineId: string; readings: WeatherReading[] };
/** What a demo machine reported over the past, and where its arm was and how it moved at the end. */
export type MachineHistory = { machineId: string; reports: SimulatedReport[]; angle: number; motion: Motion };
/**
 * The demo farm's past from before its crops' emergence up to `to`, simulated: the weather its
 * stations recorded, the passes its machines made, and the moisture its probes read at the end.
 */
export type DemoHistory = {
  from: number;
  to: number;
  stations: StationHistory[];
  machines: MachineHistory[];
  /**
   * Each probe's moisture (%) at `to`, in the order of demoProbes, and what it read each evening
   * before (`PROBE_READING_HOUR_UTC`): the server's balance follows the probes day by day, as a
   * farm's does whose probes have been in the field all season.
   */
  probes: { id: string; machineId: string; moisture: number; readings: { ts: number; moisture: number }[] }[];
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/**
 * A machine of the history reports every 5 minutes while it moves, not every 5 s as it does live:
 * a season of passes stays some 15,000 reports, stored in seconds at the first start, and pairs
 * 5 minutes apart still give the watermap every wedge and the advice the machine's depth at 100 %
 * (both take pairs up to 10 minutes apart).
 */
const MOVING_REPORT_MS = 5 * MINUTE_MS;
/**
 * The farmer starts a turn of the program once a crop area in season has used this share of the
 * water its soil holds for the crop (field capacity less wilting point) at its probes: before
 * FAO-56's p of 0.5–0.55 for most crops, as a turn takes a day or two to get round.
 */
const IRRIGATE_AT_DEPLETION = 0.4;
/**
 * The farmer waters each crop up with a turn of the program started this many days before it
 * emerges, as after planting: every season begins with a pass, so its machine's pace is known
 * from its first day (docs/advice.md, "The percent timer"), however long the field lay bare.
 */
const WATERED_UP_DAYS_BEFORE_EMERGENCE = 2;
/**
 * The probes' reading of the day kept by the history: at 21:00 UTC, within the farm's day whether
 * its days are South Africa's (23:00) or Poland's (22:00 or 23:00), as the balance takes a day's last.
 */
const PROBE_READING_HOUR_UTC = 21;
/** The pivots' pressure while watering, bar, as a live machine's. */
const PRESSURE_BAR = 2.5;

/** A demo probe's place and the soil it reads. */
type Probe = Omit<SensorSite, 'soil'> & { soil: SoilMoisture; readings: { ts: number; moisture: number }[] };

/** One demo machine as the history runs it: its station's weather, its arm and its probes' soil. */
class MachinePast {
  readonly readings: WeatherReading[] = [];
  readonly reports: SimulatedReport[] = [];
  private readonly arm: PivotArm;
  private readonly wet: ReturnType<typeof wetProbesUnder>;
  /** The probes of each crop area, in the areas' order, as demoProbes placed them. */
  private readonly areaProbes: (readonly Probe[])[];
  private turned = 0;
  /** The emergence days (`YYYY-MM-DD`) already watered up. */
  private readonly wateredUp = new Set<string>();
  private lastTs = -Infinity;

  constructor(
    readonly machine: DemoMachine,
    private readonly to: number,
    private readonly weather: WeatherModel,
    private readonly probes: readonly Probe[],
    random: Random,
    from: number,
  ) {
    this.arm = new PivotArm(
      {
        centre: machine,
        armLength: machine.armLength,
        topSpeed: machine.topSpeed,
        flow: machine.flow,
        pressure: PRESSURE_BAR,
        timeScale: 1,
        // The farmer's past passes went as planned: no alarm, and no water cut for a safety to see.
        alarmChancePerHour: 0,
        pressureSafetyDelayMs: 30_000,
      },
      random,
      { angle: machine.angle, status: 'stop', program: { ...machine.program, uploadedAt: from } },
    );
    this.areaProbes = machine.cropAreas.map((_, index) =>
      probes.slice(index * PROBES_PER_AREA, (index + 1) * PROBES_PER_AREA),
    );
    this.wet = wetProbesUnder(
      machine,
      probes.map((probe) => ({ position: probe, wet: (mm: number) => probe.soil.wet(mm) })),
    );
  }

  /** One hour from `hour` (up to `end`): the station's reading, a turn started if a crop is due, the soil drying. */
  runHour(hour: number, end: number): void {
    const reading = this.weather.readingAt(hour);
    this.readings.push(reading);
    for (const probe of this.probes) probe.soil.wet(reading.rain);
    if (!this.arm.isMoving && (this.due(isoDay(hour)) || this.wateringUp(hour))) {
      this.arm.move(this.machine.motion === 'back' ? 'back' : 'front');
      this.turned = 0;
    }
    for (let ts = hour; ts < end && this.arm.isMoving; ts += MOVING_REPORT_MS) {
      this.report(ts);
      const step = Math.min(MOVING_REPORT_MS, end - ts);
      const before = this.arm.angle;
      for (const sweep of this.arm.advance(step)) this.wet(sweep);
      const clockwise = normaliseAngle(this.arm.angle - before);
      this.turned += this.arm.status === 'front' ? clockwise : normaliseAngle(-clockwise);
      // A whole turn of the program done: the farmer stops the machine until the crop is due again.
      if (this.turned >= 360) {
        this.arm.move('stop');
        this.report(ts + step);
      }
    }
    for (const probe of this.probes) probe.soil.dry((end - hour) / HOUR_MS, reading.solarRadiation);
    if (end === hour + HOUR_MS && new Date(end).getUTCHours() === PROBE_READING_HOUR_UTC) {
      for (const probe of this.probes) probe.readings.push({ ts: end, moisture: round1(probe.soil.moisture) });
    }
  }

  get isMoving(): boolean {
    return this.arm.isMoving;
  }

  /** How far its driest crop area in season has dried at its probes, as a share of what its soil holds (0 without one). */
  driestShare(day: string): number {
    return Math.max(
      0,
      ...this.machine.cropAreas.map((cropArea, index) => {
        if (!inSeason(cropArea, day)) return 0;
        const probes = this.areaProbes[index]!;
        return probes.reduce((sum, probe) => sum + probe.soil.depletionShare(), 0) / probes.length;
      }),
    );
  }

  /** The farmer starts the next turn of the program now, and the machine reports it. */
  startTurn(ts: number): void {
    this.arm.move(this.machine.motion === 'back' ? 'back' : 'front');
    this.turned = 0;
    this.report(ts);
  }

  end(): MachineHistory {
    const motion = this.arm.isMoving ? (this.arm.status as Motion) : 'stop';
    return { machineId: this.machine.id, reports: this.reports, angle: this.arm.angle, motion };
  }

  /** Whether a crop area emerges in WATERED_UP_DAYS_BEFORE_EMERGENCE days and is not yet watered up. */
  private wateringUp(hour: number): boolean {
    const emergence = isoDay(hour + WATERED_UP_DAYS_BEFORE_EMERGENCE * DAY_MS);
    if (this.wateredUp.has(emergence)) return false;
    if (!this.machine.cropAreas.some((cropArea) => lastEmergence(cropArea, emergence) === emergence)) return false;
    this.wateredUp.add(emergence);
    return true;
  }

  /** Whether a crop area in season has dried, at its probes, to where the farmer waters. */
  private due(day: string): boolean {
    return this.driestShare(day) >= IRRIGATE_AT_DEPLETION;
  }

  private report(ts: number): void {
    this.lastTs = Math.max(ts, this.lastTs + 1);
    this.reports.push({ ts: this.lastTs, ...this.arm.report() });
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The UTC day `YYYY-MM-DD` of a time (ms). */
function isoDay(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/**
 * The demo farm's past up to `to` (ms), simulated hour by hour with no broker: from the day before
 * the earliest of the crops in the field on `to`'s day was watered up (the farmers' midnight may fall
 * before UTC's), its soils at field capacity, the weather model the live stations run (same places,
 * same region's days), and each machine making a turn of its program whenever a crop area in
 * season has dried at its probes to where the farmer waters, and before each crop emerges. The same `to` and seed give the same
 * past; without IDs' prefix, as the server stores it.
 */
export function simulateDemoHistory(to: number, seed = 1): DemoHistory {
  const today = isoDay(to);
  const earliest =
    DEMO_MACHINES.flatMap((machine) => machine.cropAreas)
      .filter((cropArea) => inSeason(cropArea, today))
      .map((cropArea) => lastEmergence(cropArea, today))
      .sort()[0] ?? today;
  const from = Date.parse(`${earliest}T00:00:00Z`) - (WATERED_UP_DAYS_BEFORE_EMERGENCE + 1) * DAY_MS;
  const stations = demoStations(DEMO_MACHINES, seed, '');
  const probes = demoProbes(DEMO_MACHINES, '').map((site) => ({
    ...site,
    soil: new SoilMoisture(site.moisture, layerMm(site.depth), site.soil),
    readings: [] as { ts: number; moisture: number }[],
  }));
  const pasts = DEMO_MACHINES.map(
    (machine, index) =>
      new MachinePast(
        machine,
        to,
        new WeatherModel(stations[index]!, mixSeed(seed, index + 1), seed),
        probes.filter((probe) => probe.machineId === machine.id),
        createRandom(mixSeed(seed, DEMO_MACHINES.length + index + 1)),
        from,
      ),
  );
  for (let hour = from; hour < to; hour += HOUR_MS) {
    for (const past of pasts) past.runHour(hour, Math.min(hour + HOUR_MS, to));
  }
  // Someone starting the demo sees a machine at work: with every machine at rest, the farmer starts
  // the next turn of the one whose crop is driest.
  if (!pasts.some((past) => past.isMoving)) {
    const driest = pasts.reduce((best, past) => (past.driestShare(today) > best.driestShare(today) ? past : best));
    if (driest.driestShare(today) > 0) driest.startTurn(to);
  }
  return {
    from,
    to,
    stations: stations.map((station, index) => ({
      stationId: station.id,
      machineId: station.machineId,
      readings: pasts[index]!.readings,
    })),
    machines: pasts.map((past) => past.end()),
    probes: probes.map((probe) => ({
      id: probe.id,
      machineId: probe.machineId,
      moisture: round1(probe.soil.moisture),
      readings: probe.readings,
    })),
  };
}
