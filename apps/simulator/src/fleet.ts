import { type FleetLayout, type MachineSite, generateMachineSites, surroundings } from './fleet-layout';
import { type LatLng, bearingAndDistance } from './geo';
import { type Sweep, sweepCovers } from './irrigation';
import { type Logger, silentLogger } from './logger';
import { type MisbehaviourShares, assertMisbehaviourShares } from './misbehaviour';
import { PivotMachine } from './pivot-machine';
import { createRandom, mixSeed } from './random';
import { SoilSensor } from './soil-sensor';
import { assertInRange } from './validation';
import { WeatherStation } from './weather-station';

export type FleetIntervals = {
  /** Telemetry while moving, ms; 5 s by default. */
  movingTelemetryMs: number;
  /** Telemetry at rest, ms; 60 s by default. */
  restingTelemetryMs: number;
  /** Weather readings, ms; 60 s by default. */
  weatherMs: number;
  /** Soil readings, ms; 60 s by default. */
  soilMs: number;
  /** Processing an uploaded program, ms; 2 s by default. */
  programProcessingMs: number;
};

export type FleetOptions = {
  brokerUrl: string;
  /** Seeds every random choice: the same seed builds and runs the same fleet; 1 by default. */
  seed?: number;
  /** Simulated minutes per real minute; 1 by default. */
  timeScale?: number;
  /** How far every machine's clock is off, ms (ahead when positive); 0 by default. */
  clockOffsetMs?: number;
  /** Put before every ID, so that several fleets can share a broker. */
  idPrefix?: string;
  intervals?: Partial<FleetIntervals>;
  /** Chance of a pressure-loss alarm per simulated hour of watering, per machine; 0.01 by default. */
  alarmChancePerHour?: number;
  /** Simulated ms a machine runs with its water cut before its low-pressure safety stops it; 30 s by default. */
  pressureSafetyDelayMs?: number;
  misbehaviour?: MisbehaviourShares;
  /** Each controller's secret by machine ID, as an administrator registered them; missing ones connect anonymously. */
  credentials?: Readonly<Record<string, string>>;
  /** The machines connect and answer commands but report nothing until startReporting (see PivotMachineOptions). */
  holdReports?: boolean;
  /** Told the machine and `ts` of each telemetry report the broker acknowledged (see PivotMachineOptions). */
  onReportAcknowledged?: (machineId: string, ts: number) => void;
  logger?: Logger;
};

/** How many machines connect at once: a broker takes a burst of a thousand connections badly. */
const CONNECT_BATCH = 50;
const DEFAULT_ALARM_CHANCE_PER_HOUR = 0.01;
/** Keeps the machines' own draws apart from those that laid out the fleet from the same seed. */
const RUN_SEED_SALT = 0x5eed;

/**
 * Machines with the weather stations and soil probes around them. Each machine has its own MQTT
 * connection and credentials; its stations and probes publish through it, as instruments wired
 * or radioed to the machine's controller do.
 */
export class Fleet {
  readonly machines: PivotMachine[];
  readonly stations: WeatherStation[];
  readonly sensors: SoilSensor[];
  private readonly logger: Logger;

  constructor(
    layout: FleetLayout,
    private readonly options: FleetOptions,
  ) {
    assertMisbehaviourShares(options.misbehaviour ?? {});
    this.logger = options.logger ?? silentLogger;
    const random = createRandom(mixSeed(options.seed ?? 1, RUN_SEED_SALT));
    const intervals = options.intervals ?? {};
    const sensorsByMachine = new Map<string, SoilSensor[]>();
    this.sensors = layout.sensors.map((site) => {
      const sensor = new SoilSensor({
        ...site,
        intervalMs: intervals.soilMs,
        timeScale: options.timeScale,
        logger: this.logger,
      });
      sensorsByMachine.set(site.machineId, [...(sensorsByMachine.get(site.machineId) ?? []), sensor]);
      return sensor;
    });
    this.machines = layout.machines.map(
      (site) =>
        new PivotMachine({
          ...site,
          brokerUrl: options.brokerUrl,
          secret: options.credentials?.[site.id],
          timeScale: options.timeScale,
          clockOffsetMs: options.clockOffsetMs,
          alarmChancePerHour: options.alarmChancePerHour ?? DEFAULT_ALARM_CHANCE_PER_HOUR,
          pressureSafetyDelayMs: options.pressureSafetyDelayMs,
          movingTelemetryMs: intervals.movingTelemetryMs,
          restingTelemetryMs: intervals.restingTelemetryMs,
          programProcessingMs: intervals.programProcessingMs,
          misbehaviour: options.misbehaviour,
          holdReports: options.holdReports,
          onReportAcknowledged: options.onReportAcknowledged && ((ts) => options.onReportAcknowledged?.(site.id, ts)),
          seed: Math.floor(random.next() * 2 ** 32),
          logger: this.logger,
          onSweep: wetProbesUnder(site, sensorsByMachine.get(site.id) ?? []),
        }),
    );
    this.stations = layout.stations.map((site) => {
      const nearby = sensorsByMachine.get(site.machineId) ?? [];
      return new WeatherStation({
        ...site,
        intervalMs: intervals.weatherMs,
        seed: Math.floor(random.next() * 2 ** 32),
        regionSeed: options.seed ?? 1,
        logger: this.logger,
        onReading: (reading) => nearby.forEach((sensor) => sensor.weather(reading)),
      });
    });
    const machinesById = new Map(this.machines.map((machine) => [machine.id, machine]));
    for (const [peripheral, site] of [
      ...this.stations.map((station, index) => [station, layout.stations[index]!] as const),
      ...this.sensors.map((sensor, index) => [sensor, layout.sensors[index]!] as const),
    ]) {
      machinesById.get(site.machineId)?.speakFor(peripheral);
    }
  }

  async start(): Promise<void> {
    try {
      for (let first = 0; first < this.machines.length; first += CONNECT_BATCH) {
        await Promise.all(this.machines.slice(first, first + CONNECT_BATCH).map((machine) => machine.start()));
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.logger.info('Fleet started', {
      broker: this.options.brokerUrl,
      machines: this.machines.length,
      stations: this.stations.length,
      sensors: this.sensors.length,
    });
  }

  /** Starts the reports held (holdReports), each machine's spread over its intervals. */
  startReporting(): void {
    for (const machine of this.machines) machine.startReporting();
  }

  /** The machine with this ID, or with this ID after the fleet's ID prefix, in any case if need be; undefined if none. */
  machine(id: string): PivotMachine | undefined {
    const wanted = [id, `${this.options.idPrefix ?? ''}${id}`];
    const folded = wanted.map((candidate) => candidate.toLowerCase());
    return (
      this.machines.find((machine) => wanted.includes(machine.id)) ??
      this.machines.find((machine) => folded.includes(machine.id.toLowerCase()))
    );
  }

  /** Stops every part; the machines go offline cleanly, and their stations and probes with them. */
  async stop(): Promise<void> {
    await Promise.all(this.machines.map((machine) => machine.stop()));
  }
}

/** What a sweep can wet: a probe's soil where it sits. */
export type WettableSpot = { position: LatLng; wet(mm: number): void };

/** Wets each of the machine's probes that a watering sweep passes over. */
export function wetProbesUnder(
  machine: Pick<MachineSite, 'lat' | 'lng' | 'armLength'>,
  sensors: readonly WettableSpot[],
): (sweep: Sweep) => void {
  const probes = sensors
    .map((sensor) => ({ sensor, ...bearingAndDistance(machine, [sensor.position.lng, sensor.position.lat]) }))
    .filter((probe) => probe.distance <= machine.armLength);
  return (sweep) => {
    for (const probe of probes) if (sweepCovers(sweep, probe.bearing)) probe.sensor.wet(sweep.depthMm);
  };
}

export type GeneratedFleetOptions = FleetOptions & {
  /** How many machines, 1–10 000. */
  count: number;
};

/** Builds a fleet of count machines on generated fields, with stations and probes, not started yet. */
export function createFleet(options: GeneratedFleetOptions): Fleet {
  assertInRange('The machine count', options.count, 1, 10_000);
  const random = createRandom(options.seed ?? 1);
  const idPrefix = options.idPrefix ?? '';
  const machines = generateMachineSites(options.count, random, idPrefix);
  return new Fleet({ machines, ...surroundings(machines, random, idPrefix) }, options);
}

/** Builds a fleet of count machines on generated fields, with stations and probes, and starts it. */
export async function startFleet(options: GeneratedFleetOptions): Promise<Fleet> {
  const fleet = createFleet(options);
  await fleet.start();
  return fleet;
}
