import { type MqttClient, connectAsync } from 'mqtt';

/** Mosquitto's own figures ($SYS), as it last published them (every `sys_interval` seconds). */
export type BrokerFigures = {
  /** Messages it holds: those queued for or in flight to subscribers, and the retained ones. */
  stored: number;
  retained: number;
  /** PUBLISH packets it has sent to subscribers since it started. */
  sent: number;
  /** Publishes it acknowledged and then dropped, a subscriber's queue being full (max_queued_messages). */
  dropped: number;
};

const TOPICS: Record<string, keyof BrokerFigures> = {
  '$SYS/broker/store/messages/count': 'stored',
  '$SYS/broker/retained messages/count': 'retained',
  '$SYS/broker/publish/messages/sent': 'sent',
  '$SYS/broker/publish/messages/dropped': 'dropped',
};

/** A watcher of a Mosquitto's $SYS figures, on an account allowed to read them. */
export class BrokerWatch {
  private readonly figures: Partial<BrokerFigures> = {};

  private constructor(private readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const figure = TOPICS[topic];
      if (figure) this.figures[figure] = Number(payload.toString());
    });
  }

  static async start(url: string, account: { username: string; password: string }): Promise<BrokerWatch> {
    const client = await connectAsync(url, { ...account, clean: true, reconnectPeriod: 1000 });
    const watch = new BrokerWatch(client);
    await client.subscribeAsync(Object.keys(TOPICS), { qos: 0 });
    return watch;
  }

  /** The latest figures, or undefined until each has been published once. */
  latest(): BrokerFigures | undefined {
    const { stored, retained, sent, dropped } = this.figures;
    if (stored === undefined || retained === undefined || sent === undefined || dropped === undefined) return undefined;
    return { stored, retained, sent, dropped };
  }

  stop(): Promise<void> {
    return this.client.endAsync();
  }
}
