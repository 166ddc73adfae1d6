import type { BenchServer } from './bench-server';
import { ChildScript } from './child-script';
import type { LoadEvent, LoadRequest } from './load-process';
import { formatNumber, printFigure, printTargeted } from './report';

/** Each route is measured after this much load not counted. */
export const WARM_UP_SECONDS = 2;

/** A route whose requests/s are set beside those of GET /api/health, loaded the same way in the same run. */
export type ComparedRoute = {
  /** How the figure is labelled, e.g. `GET /api/sprinkler/`. */
  label: string;
  path: string;
  /** `Bearer <the signed-in user's access token>` */
  authorization: string;
  /** How the share is labelled, e.g. `list / health`. */
  shareLabel: string;
};

/**
 * Runs autocannon (in a process of its own, with `connections` connections) against
 * GET /api/health and then the route, each for `seconds` after the warm-up, prints both rates
 * and the route's share of health against the target, and says whether it was met. Any failed
 * request stops the benchmark: it would spoil the figure.
 */
export async function printShareOfHealth(
  server: BenchServer,
  route: ComparedRoute,
  load: { connections: number; seconds: number; targetPercent: number },
): Promise<void> {
  const loader = ChildScript.start<LoadRequest, LoadEvent>(new URL('load-process.ts', import.meta.url));
  try {
    const measure = async (path: string, headers: Record<string, string>) => {
      const request = { type: 'run', url: `${server.baseUrl}${path}`, headers, connections: load.connections } as const;
      await loader.ask({ ...request, seconds: WARM_UP_SECONDS }, 'result');
      const result = await loader.ask({ ...request, seconds: load.seconds }, 'result');
      if (result.failures > 0) throw new Error(`${path}: ${result.failures} failed requests under load`);
      return result;
    };
    const health = await measure('/api/health', {});
    const measured = await measure(route.path, { authorization: route.authorization });
    for (const [label, result] of [
      ['GET /api/health', health],
      [route.label, measured],
    ] as const) {
      printFigure(
        label,
        `${formatNumber(result.requestsPerSecond)} requests/s (latency p50 ${result.latencyP50} ms, p95 ${result.latencyP95} ms, p99 ${result.latencyP99} ms)`,
      );
    }
    const share = (measured.requestsPerSecond / health.requestsPerSecond) * 100;
    printTargeted(route.shareLabel, share, '%', { atLeast: load.targetPercent });
  } finally {
    await loader.end();
  }
}
