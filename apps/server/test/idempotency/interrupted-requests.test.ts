import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { IdempotencyService } from '../../src/modules/idempotency/idempotency.service';
import { useTestApp } from '../support/test-app';

/** As long as a repeat would wait for a live first request: the command timeout and 5 s, as the app sets it. */
const WAIT_MS = 15_000;

/** A request whose process died before it answered: the row stays pending, with no live owner. */
describe('a retried request that a crash cut short', () => {
  const t = useTestApp();

  const instance = (serverId: string, run = randomUUID()) =>
    new IdempotencyService(t.database.db, WAIT_MS, { serverId, run });
  const call = async () => {
    const user = await t.buildUser();
    return {
      userId: user.id,
      key: randomUUID(),
      method: 'POST',
      url: '/api/sprinkler/1/motion',
      body: { motion: 'stop' },
    };
  };
  /** What a repeat gets and how long it took to get it. */
  async function repeat(service: IdempotencyService, request: Awaited<ReturnType<typeof call>>) {
    const started = Date.now();
    const outcome = await service.begin(request).catch((error: unknown) => error);
    return { outcome, tookMs: Date.now() - started };
  }

  it('is answered at once by the restarted instance: the request was interrupted, check the machine', async () => {
    const request = await call();
    // The first run of instance A takes the request, and dies before it answers.
    expect(await instance('A').begin(request)).toBe('first');

    const { outcome, tookMs } = await repeat(instance('A'), request);
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('request_in_progress');
    expect(tookMs).toBeLessThan(1000);
  });

  it('still waits for a first request its own run is handling, and gives its answer', async () => {
    const request = await call();
    const live = instance('A');
    expect(await live.begin(request)).toBe('first');
    const repeated = live.begin(request);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await live.finish(request, { status: 200, contentType: 'application/json', body: '{"ok":true}' });
    expect(await repeated).toEqual({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
  });

  it('waits on another instance, which cannot tell a crashed first request from a slow one', async () => {
    const request = await call();
    expect(await instance('A').begin(request)).toBe('first');
    const other = new IdempotencyService(t.database.db, 300, { serverId: 'B', run: randomUUID() });
    const { outcome, tookMs } = await repeat(other, request);
    expect((outcome as AppError).code).toBe('request_in_progress');
    expect(tookMs).toBeGreaterThanOrEqual(300);
  });
});
