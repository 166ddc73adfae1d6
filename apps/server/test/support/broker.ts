import mqtt, { type MqttClient } from 'mqtt';
import type { App } from '../../src/app';
import type { ServerCredentials } from '../../src/gateway/broker-policy';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../src/gateway/embedded-broker';
import { ControllersInMemory, policyFor } from './devices';
import { type TestApp, createTestApp } from './test-app';

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

/**
 * An app on an embedded broker of the test's own (not the shared one), which the test may take
 * away under the server or configure as the broker's own hooks need.
 */
export async function createAppOnOwnBroker(env: Record<string, string> = {}): Promise<{
  broker: EmbeddedBroker;
  /** The broker's account of the server. */
  server: ServerCredentials;
  t: TestApp;
}> {
  const policy = policyFor(new ControllersInMemory());
  const broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', policy });
  const t = await createTestApp({
    MQTT_URL: broker.url,
    MQTT_SHARED_GROUP: '',
    MQTT_USERNAME: policy.server.username,
    MQTT_PASSWORD: policy.server.password,
    ...env,
  });
  return { broker, server: policy.server, t };
}
