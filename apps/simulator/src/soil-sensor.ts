import { PROTOCOL_VERSION, SOIL_TEXTURES, SoilMessageSchema, type SoilWater, topics } from '@pivot/contracts';
import type { MqttClient } from 'mqtt';
import type { LatLng } from './geo';
import { type Logger, silentLogger } from './logger';
import { encode } from './mqtt-connection';
import { RetainedReporter } from './retained-reporter';
import { UniqueClock } from './unique-clock';
import { assertInRange, assertPositive, assertTopicId } from './validation';
import type { WeatherReading } from './weather-model';

/** A probe told no soil sits in a silt loam, the middle of FAO-56 Table 19. */
const DEFAULT_SOIL = SOIL_TEXTURES['silt-loam'];
/**
 * The most a layer holds above field capacity, percentage points: water beyond it runs through
 * at once, and what stays above field capacity drains within a day, so a probe reads at most a
 * little above field capacity, as a real one does in the hours after a downpour.
 */
export const WETTEST_ABOVE_FIELD_CAPACITY = 5;
/** Evaporation that goes on at night, mm/h. */
const NIGHT_EVAPORATION_MM_PER_HOUR = 0.02;
/** Half the sunshine's energy goes into evaporating water: W/m² → mm/h (2.45 MJ evaporate 1 mm). */
const EVAPORATION_MM_PER_HOUR_PER_WATT = (0.5 * 0.0036) / 2.45;
const DRAINAGE_HALF_LIFE_HOURS = 6;

/**
 * Volumetric water content (%) of the soil layer a probe sits in, between the soil's wilting
 * point and a little above its field capacity: water in raises it, the sun draws it down (more
 * slowly as the soil dries), and what exceeds field capacity drains away.
 */
export class SoilMoisture {
  private readonly wiltingPoint: number;
  private readonly fieldCapacity: number;

  constructor(
    public moisture: number,
    private readonly layerMm: number,
    soil: SoilWater = DEFAULT_SOIL,
  ) {
    this.wiltingPoint = soil.wiltingPoint * 100;
    this.fieldCapacity = soil.fieldCapacity * 100;
  }

  /** Rain or irrigation reaching the soil, mm. */
  wet(mm: number): void {
    this.moisture = Math.min(
      this.fieldCapacity + WETTEST_ABOVE_FIELD_CAPACITY,
      this.moisture + (mm / this.layerMm) * 100,
    );
  }

  /** The share of the soil's available water (field capacity less wilting point) used up: 0 at field capacity, 1 at wilting. */
  depletionShare(): number {
    const share = (this.fieldCapacity - this.moisture) / (this.fieldCapacity - this.wiltingPoint);
    return Math.min(1, Math.max(0, share));
  }

  /** Evapotranspiration and drainage over some hours under the given sunshine (W/m²). */
  dry(hours: number, solarRadiation: number): void {
    const available = 1 - this.depletionShare();
    const evaporatedMm =
      (NIGHT_EVAPORATION_MM_PER_HOUR + EVAPORATION_MM_PER_HOUR_PER_WATT * solarRadiation) * hours * available;
    this.moisture = Math.max(this.wiltingPoint, this.moisture - (evaporatedMm / this.layerMm) * 100);
    if (this.moisture > this.fieldCapacity) {
      this.moisture =
        this.fieldCapacity + (this.moisture - this.fieldCapacity) * 0.5 ** (hours / DRAINAGE_HALF_LIFE_HOURS);
    }
  }
}

export type SoilSensorOptions = {
  id: string;
  /** The controller it is wired to, which publishes its readings under its own topics. */
  machineId: string;
  lat: number;
  lng: number;
  /** ms between readings; 60 s by default. */
  intervalMs?: number;
  /** Probe depth, cm; 30 by default. The probe reads a layer twice as deep. */
  depth?: number;
  /** Starting moisture, %; 25 by default. */
  moisture?: number;
  /** The soil it sits in (FAO-56 Table 19, as fractions); a silt loam by default. */
  soil?: SoilWater;
  /** Simulated minutes per real minute, as for the machines watering it; 1 by default. */
  timeScale?: number;
  logger?: Logger;
};

/** The layer a probe at this depth (cm) reads, mm: twice as deep as the probe sits. */
export function layerMm(depthCm: number): number {
  return depthCm * 2 * 10;
}

/** A soil-moisture probe publishing retained readings to machines/{machineId}/sensors/{id}/soil. */
export class SoilSensor {
  readonly id: string;
  readonly machineId: string;
  readonly position: LatLng;
  private readonly depth: number;
  private readonly timeScale: number;
  private readonly soil: SoilMoisture;
  private readonly reporter: RetainedReporter;
  private readonly clock = new UniqueClock();
  private lastDried = Date.now();
  private solarRadiation = 0;

  constructor(options: SoilSensorOptions) {
    assertTopicId(options.id);
    this.depth = options.depth ?? 30;
    this.timeScale = options.timeScale ?? 1;
    const intervalMs = options.intervalMs ?? 60_000;
    assertInRange('The probe depth', this.depth, 1, 500);
    assertPositive('The time scale', this.timeScale);
    assertPositive('The soil interval', intervalMs);
    this.id = options.id;
    this.machineId = options.machineId;
    this.position = { lat: options.lat, lng: options.lng };
    this.soil = new SoilMoisture(options.moisture ?? 25, layerMm(this.depth), options.soil);
    this.reporter = new RetainedReporter(
      topics.soil(options.machineId, options.id),
      intervalMs,
      () => this.nextReading(),
      options.logger ?? silentLogger,
    );
  }

  get moisture(): number {
    return this.soil.moisture;
  }

  /** Publishes through its controller's connection (see PivotMachine.speakFor), the first reading `phase` (0–1) into its interval. */
  start(client: MqttClient, phase = 0): void {
    this.lastDried = Date.now();
    this.reporter.start(client, phase);
  }

  stop(): void {
    this.reporter.stop();
  }

  /** Irrigation falling on the probe's spot, mm. */
  wet(mm: number): void {
    this.dryUntilNow();
    this.soil.wet(mm);
  }

  /** A reading from the station nearby: its rain wets the soil and its sunshine sets how fast it dries. */
  weather(reading: WeatherReading): void {
    this.dryUntilNow();
    this.solarRadiation = reading.solarRadiation;
    this.soil.wet(reading.rain);
  }

  private dryUntilNow(): void {
    const now = Date.now();
    this.soil.dry(((now - this.lastDried) / 3_600_000) * this.timeScale, this.solarRadiation);
    this.lastDried = now;
  }

  private nextReading(): string {
    this.dryUntilNow();
    const { lat, lng } = this.position;
    const moisture = Math.round(this.soil.moisture * 10) / 10;
    return encode(SoilMessageSchema, {
      v: PROTOCOL_VERSION,
      ts: this.clock.now(),
      lat,
      lng,
      moisture,
      depth: this.depth,
    });
  }
}
