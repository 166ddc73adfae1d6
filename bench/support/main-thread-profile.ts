import path from 'node:path';
import type { Page } from 'playwright-core';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** Sampling every 0.2 ms: a profile of a second's load keeps about 5,000 samples. */
const SAMPLING_INTERVAL_US = 200;

/** Milliseconds of the page's main thread by what they went to, largest first. */
export type MainThreadTime = [what: string, ms: number][];

/** A page's main-thread CPU profile, its samples placed on the page's own clock (`performance.now()`). */
export type MainThreadProfile = {
  /**
   * The time from `from` to `to` (page clock, ms) by the script file that ran, the browser's own
   * work ("(program)": parsing, style, layout, painting), garbage collection, or idle. A builtin
   * counts for the script that called it.
   */
  between(from: number, to: number): MainThreadTime;
};

/**
 * Starts V8's sampling profiler on the page's main thread (Chrome DevTools Protocol), before the
 * page navigates; `stop` places the samples on the clock of the document loaded since. The
 * clocks are matched through the wall clock right after the profiler started: a few ms of skew.
 */
export async function profileMainThread(page: Page): Promise<{ stop: () => Promise<MainThreadProfile> }> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
  await session.send('Profiler.start');
  const startedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
  return {
    async stop() {
      const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const timeOrigin = await page.evaluate(() => performance.timeOrigin);
      await session.detach();
      return placeSamples(profile, startedAt - timeOrigin);
    },
  };
}

function placeSamples(profile: CpuProfile, profileStartOnPageClock: number): MainThreadProfile {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const attribution = new Map<number, string>();
  const attribute = (id: number): string => {
    const known = attribution.get(id);
    if (known !== undefined) return known;
    const { functionName, url } = nodes.get(id)!.callFrame;
    const parent = parents.get(id);
    const what = url
      ? path.basename(new URL(url).pathname) || url
      : functionName.startsWith('(') || parent === undefined
        ? functionName
        : attribute(parent);
    attribution.set(id, what);
    return what;
  };
  let elapsedUs = 0;
  const samples = profile.samples.map((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    return { at: profileStartOnPageClock + elapsedUs / 1000, what: attribute(id) };
  });
  return {
    between(from, to) {
      const time = new Map<string, number>();
      samples.forEach((sample, index) => {
        if (sample.at < from || sample.at >= to) return;
        const ms = (profile.timeDeltas[index + 1] ?? SAMPLING_INTERVAL_US) / 1000;
        time.set(sample.what, (time.get(sample.what) ?? 0) + ms);
      });
      return [...time].sort((a, b) => b[1] - a[1]);
    },
  };
}
