import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { BoundedWork } from '../../src/http/bounded-work';

/** A piece of work that runs until the test lets it finish. */
function heldWork() {
  let finish!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      started = true;
      await done;
      return 'done';
    },
    finish: () => finish(),
    started: () => started,
  };
}

async function settled(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('costly work kept to a few at a time', () => {
  it('runs one, keeps four waiting in order, refuses the sixth at once as rate_limited, and takes new work once a place is free', async () => {
    const gate = new BoundedWork(1, 4);
    const pieces = Array.from({ length: 6 }, () => heldWork());
    const results = pieces.map((piece) => gate.run(piece.work).catch((error: unknown) => error));
    await settled();
    expect(pieces.map((piece) => piece.started())).toEqual([true, false, false, false, false, false]);
    const refused = await results[5];
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429, headers: { 'retry-after': '5' } });

    pieces[0]!.finish();
    await settled();
    expect(pieces.map((piece) => piece.started())).toEqual([true, true, false, false, false, false]);
    expect(await results[0]).toBe('done');

    const late = heldWork();
    const lateResult = gate.run(late.work);
    for (const piece of pieces.slice(1, 5)) {
      piece.finish();
      await settled();
    }
    expect(late.started()).toBe(true);
    late.finish();
    expect(await lateResult).toBe('done');
    expect(await Promise.all(results.slice(1, 5))).toEqual(['done', 'done', 'done', 'done']);
  });

  it('frees the place of work that fails, for the next in line', async () => {
    const gate = new BoundedWork(1, 1);
    const failing = gate.run(() => Promise.reject(new Error('unreadable')));
    const next = heldWork();
    const nextResult = gate.run(next.work);
    await expect(failing).rejects.toThrow('unreadable');
    await settled();
    expect(next.started()).toBe(true);
    next.finish();
    expect(await nextResult).toBe('done');
  });
});
