import type { MqttClient } from 'mqtt';
import type { Logger } from './logger';

/** Publishes a retained reading at once and then every interval, as stations and soil sensors do. */
export class RetainedReporter {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly topic: string,
    private readonly intervalMs: number,
    private readonly nextReading: () => string,
    private readonly logger: Logger,
  ) {}

  start(client: MqttClient): void {
    this.stop();
    this.publish(client);
    this.timer = setInterval(() => this.publish(client), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private publish(client: MqttClient): void {
    client.publish(this.topic, this.nextReading(), { qos: 1, retain: true }, (error) => {
      if (error) this.logger.warn('Could not publish a reading', { topic: this.topic, error: error.message });
    });
  }
}
