import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sleep } from './stats';

/** Node's arguments that make a server write a heap snapshot into `folder` when sent SIGUSR2. */
export const heapSnapshotArguments = (folder: string): string[] => [
  '--heapsnapshot-signal=SIGUSR2',
  `--diagnostic-dir=${folder}`,
];

/**
 * Has the process `pid` (started with heapSnapshotArguments(folder)) write a heap snapshot, and
 * waits until it answers again (the writing stops it); what became of it, for the run's notes: a
 * snapshot that failed must not cost the run its figures.
 */
export async function writeHeapSnapshot(
  pid: number,
  folder: string,
  answers: () => Promise<boolean>,
  withinMs: number,
): Promise<string> {
  process.kill(pid, 'SIGUSR2');
  // The signal is handled between two tasks: an answer before the writing started is no proof.
  await sleep(1000);
  const deadline = Date.now() + withinMs;
  while (!(await answers())) {
    if (Date.now() > deadline) return `no heap snapshot: pid ${pid} did not answer within ${withinMs} ms`;
    await sleep(1000);
  }
  const written = (await readdir(folder)).filter((name) => name.includes(`.${pid}.`) && name.endsWith('.heapsnapshot'));
  return written.length > 0
    ? `heap snapshot of pid ${pid}: ${path.join(folder, written.sort().at(-1)!)}`
    : `no heap snapshot of pid ${pid} was written`;
}
