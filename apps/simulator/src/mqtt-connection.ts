import type { MqttClient } from 'mqtt';

/** Serialises a message after checking it against its contract schema, so nothing off-contract leaves. */
export function encode<T>(schema: { parse(input: unknown): T }, message: T): string {
  return JSON.stringify(schema.parse(message));
}

/** Resolves on the client's first connection; rejects if the broker refuses it or the socket closes first. */
export function waitForConnection(client: MqttClient, brokerUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      client.off('connect', onConnect);
      client.off('error', onError);
      client.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onConnect = () => settle();
    const onError = (error: Error) =>
      settle(new Error(`Cannot connect to the broker at ${brokerUrl}: ${error.message}`));
    const onClose = () => settle(new Error(`Cannot connect to the broker at ${brokerUrl}: connection closed`));
    client.on('connect', onConnect);
    client.on('error', onError);
    client.on('close', onClose);
  });
}
