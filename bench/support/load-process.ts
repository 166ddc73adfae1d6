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
  /** From every response's own time: autocannon's histogram gives no 95th percentile. */
  latencyP95: number;
  latencyP99: number;
  /** Answers other than 2xx, errors and timeouts: each of them spoils the figure. */
  failures: number;
};

serveParent<LoadRequest, LoadEvent>(async (request, tell) => {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = {
      url: request.url,
      headers: request.headers,
      connections: request.connections,
      duration: request.seconds,
    };
    autocannon(options, (error: unknown, done) => (error ? reject(error) : resolve(done))).on(
      'response',
      (_client, _status, _bytes, responseTime) => times.push(responseTime),
    );
  });
  times.sort((a, b) => a - b);
  tell({
    type: 'result',
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP95: Math.round(times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] ?? 0),
    latencyP99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  });
});
