import { performance } from 'node:perf_hooks';

export type LatencySummary = { count: number; p50: number; p95: number; max: number };

/** The nearest-rank percentile of ascending samples; fraction in (0, 1]. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) throw new Error('no samples');
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarise(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1)! };
}

/** Milliseconds the work took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Runs the work count times one after another and returns how long each run took, ms. */
export async function timeSequentially(count: number, work: (index: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let index = 0; index < count; index += 1) durations.push(await timed(() => work(index)));
  return durations;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until the condition holds; throws with the description once the deadline passes. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  description: string,
  timeoutMs: number,
  pollMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(pollMs);
  }
}

/** The middle value (the upper of the two middle ones for an even count): a typical one of a few runs. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('no values');
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
