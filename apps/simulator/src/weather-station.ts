import { PROTOCOL_VERSION, WeatherMessageSchema, topics } from '@pivot/contracts';
import type { MqttClient } from 'mqtt';
import { type Logger, silentLogger } from './logger';
import { encode } from './mqtt-connection';
import { RetainedReporter } from './retained-reporter';
import { UniqueClock } from './unique-clock';
import { assertPositive, assertTopicId } from './validation';
import { type WeatherReading, WeatherModel } from './weather-model';

export type WeatherStationOptions = {
  id: string;
  /** The controller it is wired to, which publishes its readings under its own topics. */
  machineId: string;
  lat: number;
  lng: number;
  /** Metres above sea level, reported with every reading when given (the server's ET0 takes it). */
  elevation?: number;
  /** ms between readings; 60 s by default. */
  intervalMs?: number;
  seed?: number;
  /** Shared by the stations of one region, so their days agree; the station's seed by default. */
  regionSeed?: number;
  logger?: Logger;
  /** Told of every reading, so the soil sensors nearby feel its rain and sunshine. */
  onReading?: (reading: WeatherReading) => void;
};

/** A weather station publishing retained readings to machines/{machineId}/stations/{id}/weather. */
export class WeatherStation {
  readonly id: string;
  readonly machineId: string;
  private readonly model: WeatherModel;
  private readonly reporter: RetainedReporter;
  private readonly clock = new UniqueClock();

  constructor(private readonly options: WeatherStationOptions) {
    assertTopicId(options.id);
    const intervalMs = options.intervalMs ?? 60_000;
    assertPositive('The weather interval', intervalMs);
    this.id = options.id;
    this.machineId = options.machineId;
    const seed = options.seed ?? 1;
    const { lat, lng, elevation } = options;
    this.model = new WeatherModel(
      elevation === undefined ? { lat, lng } : { lat, lng, elevation },
      seed,
      options.regionSeed ?? seed,
    );
    this.reporter = new RetainedReporter(
      topics.weather(options.machineId, options.id),
      intervalMs,
      () => this.nextReading(),
      options.logger ?? silentLogger,
    );
  }

  /** Publishes through its controller's connection (see PivotMachine.speakFor), the first reading `phase` (0–1) into its interval. */
  start(client: MqttClient, phase = 0): void {
    this.reporter.start(client, phase);
  }

  stop(): void {
    this.reporter.stop();
  }

  private nextReading(): string {
    const reading = this.model.readingAt(this.clock.now());
    this.options.onReading?.(reading);
    return encode(WeatherMessageSchema, { v: PROTOCOL_VERSION, ...reading });
  }
}
