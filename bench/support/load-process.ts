/**
 * autocannon in a process of its own, driven by bench/sprinkler-detail.ts: a load generator
 * in the server's process would take the server's event loop for itself.
 */
import autocannon from 'autocannon';
import { serveParent } from './child-script';

export type LoadRequest = {
  type: 'run';
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
};

export type LoadEvent = {
  type: 'result';
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  /** Answers other than 2xx, errors and timeouts: each of them spoils the figure. */
  failures: number;
};

serveParent<LoadRequest, LoadEvent>(async (request, tell) => {
  const result = await autocannon({
    url: request.url,
    headers: request.headers,
    connections: request.connections,
    duration: request.seconds,
  });
  tell({
    type: 'result',
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  });
});
