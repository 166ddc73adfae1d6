import path from 'node:path';
import type { Page } from 'playwright-core';
import { formatNumber } from './report';

/** A script that ran in a long animation frame: its file, function, what called it, ms. */
export type LoafScript = { source: string; fn: string; invoker: string; duration: number };
/** A long animation frame (≥ 50 ms), start and duration on the page's clock, with its scripts. */
export type Loaf = { start: number; duration: number; scripts: LoafScript[] };
/** The long tasks' durations (each ≥ 50 ms) and the long animation frames of a stretch of a page's life. */
export type LongTasks = { tasks: number[]; frames: Loaf[] };

/** What recordLongTasks keeps on window.__benchLongTasks. */
type Recorded = { tasks: { start: number; duration: number }[]; frames: Loaf[] };

/**
 * Runs in the page before its own scripts (`page.addInitScript(recordLongTasks)`): keeps every long
 * task (PerformanceObserver 'longtask', ≥ 50 ms) and long animation frame ('long-animation-frame',
 * with the scripts that ran in it, for attribution) since the document started.
 */
export function recordLongTasks(): void {
  const recorded: Recorded = { tasks: [], frames: [] };
  const observe = (type: string, take: (entry: PerformanceEntry) => void) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(take)).observe({ type, buffered: true });
    } catch {
      // An entry type this browser does not know: nothing to record.
    }
  };
  observe('longtask', (entry) => recorded.tasks.push({ start: entry.startTime, duration: entry.duration }));
  observe('long-animation-frame', (entry) => {
    const scripts = (entry as PerformanceEntry & { scripts?: Record<string, unknown>[] }).scripts ?? [];
    recorded.frames.push({
      start: entry.startTime,
      duration: entry.duration,
      scripts: scripts.map((script) => ({
        source: String(script.sourceURL ?? ''),
        fn: String(script.sourceFunctionName ?? ''),
        invoker: String(script.invoker ?? ''),
        duration: Number(script.duration ?? 0),
      })),
    });
  });
  (window as unknown as { __benchLongTasks: Recorded }).__benchLongTasks = recorded;
}

/** The long tasks and frames recorded on the page that began from `from` until before `to` (page clock, ms). */
export function longTasksBetween(page: Page, from: number, to = Number.POSITIVE_INFINITY): Promise<LongTasks> {
  return page.evaluate(
    ([start, end]) => {
      const { tasks, frames } = (window as unknown as { __benchLongTasks: Recorded }).__benchLongTasks;
      const within = (entry: { start: number }) => entry.start >= start && entry.start < end;
      return { tasks: tasks.filter(within).map((task) => task.duration), frames: frames.filter(within) };
    },
    // JSON carries no Infinity: the page's own clock never reaches Number.MAX_VALUE.
    [from, Math.min(to, Number.MAX_VALUE)] as const,
  );
}

/**
 * The script that ran longest in the long animation frames, as `ms in file function (invoker),
 * in a frame of ms`: the frame's own length also holds style, layout and painting.
 */
export function blame(frames: readonly Loaf[]): string | undefined {
  const ranked = frames
    .flatMap((frame) => frame.scripts.map((script) => ({ frame, script })))
    .sort((a, b) => b.script.duration - a.script.duration);
  const longest = ranked[0];
  if (!longest) return undefined;
  const { frame, script } = longest;
  const file = script.source ? path.basename(new URL(script.source).pathname) : 'the page';
  return `${formatNumber(script.duration)} ms in ${file} ${script.fn || '(anonymous)'} (${script.invoker}), in a ${formatNumber(frame.duration)} ms frame`;
}
