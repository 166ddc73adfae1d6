/**
 * The broker's own rate, for comparison with the server's: a plain MQTT subscriber in a
 * process of its own that counts a fleet's telemetry as the server receives it (same filter,
 * QoS 1) and stores nothing.
 */
import { TOPIC_ROOT, topicFilters } from '@pivot/contracts';
import { type MqttClient, connectAsync } from 'mqtt';
import { serveParent } from './child-script';

export type CounterRequest =
  /** `server`: the server's own broker account, the one allowed to read every machine. */
  | { type: 'start'; brokerUrl: string; idPrefix: string; server: { username: string; password: string } }
  | { type: 'count' }
  /** Answered with `reached` once this many reports have arrived. */
  | { type: 'notify'; total: number };

/** `at`: when the last report counted arrived. */
export type CounterEvent =
  { type: 'started' } | { type: 'count'; count: number; at: number } | { type: 'reached'; count: number; at: number };

let client: MqttClient | undefined;
let count = 0;
let lastAt = Date.now();
let goal: number | undefined;

serveParent<CounterRequest, CounterEvent>(async (request, tell) => {
  switch (request.type) {
    case 'start': {
      const topicStart = `${TOPIC_ROOT}/machines/${request.idPrefix}`;
      const { username, password } = request.server;
      client = await connectAsync(request.brokerUrl, {
        clean: true,
        reconnectPeriod: 0,
        ...(password ? { username, password } : {}),
      });
      client.on('message', (topic) => {
        if (!topic.startsWith(topicStart)) return;
        count += 1;
        lastAt = Date.now();
        if (goal !== undefined && count >= goal) {
          goal = undefined;
          tell({ type: 'reached', count, at: lastAt });
        }
      });
      await client.subscribeAsync(topicFilters.telemetry, { qos: 1 });
      tell({ type: 'started' });
      return;
    }
    case 'count':
      tell({ type: 'count', count, at: lastAt });
      return;
    case 'notify':
      if (count >= request.total) tell({ type: 'reached', count, at: lastAt });
      else goal = request.total;
  }
});
