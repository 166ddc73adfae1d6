import mqtt, { type MqttClient } from 'mqtt';
import type { App } from '../../src/app';

/** A connection to the app's broker with the server's own account, which may read and write any topic. */
export async function connectAsServer(app: App): Promise<MqttClient> {
  const { username, password } = app.brokerPolicy.server;
  return mqtt.connectAsync(app.mqttUrl, { reconnectPeriod: 0, ...(password ? { username, password } : {}) });
}

/** Publishes an empty retained message to each topic, which removes what the broker kept there. */
export async function clearRetained(app: App, topicsToClear: string[]): Promise<void> {
  if (topicsToClear.length === 0) return;
  const client = await connectAsServer(app);
  await Promise.all(topicsToClear.map((topic) => client.publishAsync(topic, '', { retain: true, qos: 1 })));
  await client.endAsync();
}
