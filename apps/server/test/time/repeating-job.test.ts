import { describe, expect, it } from 'vitest';
import { RepeatingJob } from '../../src/time/repeating-job';

describe('a repeating job', () => {
  it('runs one run at a time, in the order asked, and stopping waits for the run under way', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const job = new RepeatingJob<string>(
      async (name) => {
        events.push(`start ${name}`);
        if (name === 'slow') await new Promise<void>((resolve) => (release = resolve));
        events.push(`end ${name}`);
      },
      { everyMs: 60_000, onError: () => undefined },
    );
    const slow = job.runNow('slow');
    const quick = job.runNow('quick');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toEqual(['start slow']);
    const stopped = job.stop();
    release();
    await Promise.all([slow, quick, stopped]);
    expect(events).toEqual(['start slow', 'end slow', 'start quick', 'end quick']);
  });

  it('reports a failed run, tells whoever asked for it, and runs the next', async () => {
    const reported: unknown[] = [];
    let runs = 0;
    const job = new RepeatingJob(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('database away');
      },
      { everyMs: 60_000, onError: (error) => reported.push(error) },
    );
    await expect(job.runNow()).rejects.toThrow('database away');
    await expect(job.runNow()).resolves.toBeUndefined();
    expect(runs).toBe(2);
    expect(reported).toEqual([new Error('database away')]);
  });

  it('runs by itself every interval once started, and no more once stopped', async () => {
    let runs = 0;
    const job = new RepeatingJob(
      async () => {
        runs += 1;
      },
      { everyMs: 20, onError: () => undefined },
    );
    job.start();
    await expect.poll(() => runs).toBeGreaterThanOrEqual(3);
    await job.stop();
    const afterStop = runs;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(afterStop);
  });

  it('runs once soon after a start when asked, long before its interval, and not at all if stopped first', async () => {
    let runs = 0;
    const job = new RepeatingJob(
      async () => {
        runs += 1;
      },
      { everyMs: 60_000, onError: () => undefined },
    );
    job.start({ firstAfterMs: 20 });
    await expect.poll(() => runs).toBe(1);
    await job.stop();

    const stoppedFirst = new RepeatingJob(
      async () => {
        runs += 1;
      },
      { everyMs: 60_000, onError: () => undefined },
    );
    stoppedFirst.start({ firstAfterMs: 20 });
    await stoppedFirst.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(1);
  });

  it('hears no news once stopped: stopped means no more runs but those asked for by name', async () => {
    let runs = 0;
    const job = new RepeatingJob(
      async () => {
        runs += 1;
      },
      { everyMs: 60_000, onError: () => undefined },
    );
    job.start();
    job.soon();
    await expect.poll(() => runs).toBe(1);
    await job.stop();
    job.soon();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(1);
    await job.runNow();
    expect(runs).toBe(2);
  });

  it('lets the ticks that come while a long run goes on wait as one run, not one each', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const job = new RepeatingJob(
      async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { everyMs: 10, onError: () => undefined },
    );
    job.start();
    await expect.poll(() => runs).toBe(1);
    // Twenty ticks' time while the first run holds.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await job.stop();
    expect(runs).toBeLessThanOrEqual(3);
  });
});
