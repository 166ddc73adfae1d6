import type { MqttClient } from 'mqtt';
import type { Logger } from './logger';

/** Publishes a retained reading every interval, as stations and soil sensors do: the first at once, or `phase` into the interval. */
export class RetainedReporter {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly topic: string,
    private readonly intervalMs: number,
    private readonly nextReading: () => string,
    private readonly logger: Logger,
  ) {}

  /** `phase`: how far into its interval the first reading falls, 0–1; 0, at once, by default. */
  start(client: MqttClient, phase = 0): void {
    this.stop();
    const begin = () => {
      this.publish(client);
      this.timer = setInterval(() => this.publish(client), this.intervalMs);
    };
    if (phase > 0) this.timer = setTimeout(begin, phase * this.intervalMs);
    else begin();
  }

  stop(): void {
    // The first reading's timeout or the interval: Node clears either this way.
    clearInterval(this.timer);
  }

  private publish(client: MqttClient): void {
    client.publish(this.topic, this.nextReading(), { qos: 1, retain: true }, (error) => {
      if (error) this.logger.warn('Could not publish a reading', { topic: this.topic, error: error.message });
    });
  }
}
