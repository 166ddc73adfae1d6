import mqtt from 'mqtt';

/** Publishes an empty retained message to each topic, which removes what the broker kept there. */
export async function clearRetained(brokerUrl: string, topicsToClear: string[]): Promise<void> {
  if (topicsToClear.length === 0) return;
  const client = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  await Promise.all(topicsToClear.map((topic) => client.publishAsync(topic, '', { retain: true, qos: 1 })));
  await client.endAsync();
}
