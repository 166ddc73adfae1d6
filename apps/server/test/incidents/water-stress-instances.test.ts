import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { createTestDatabase } from '../support/database';
import { type TestApp, createTestApp } from '../support/test-app';

const HOUR_MS = 60 * 60_000;

describe('the hourly water-stress look with two instances', () => {
  let handle: DatabaseHandle;
  let instances: TestApp[];
  beforeAll(async () => {
    handle = await createTestDatabase();
    instances = [await createTestApp({}, { database: handle }), await createTestApp({}, { database: handle })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await handle.close();
  });

  /** Both instances' hourly looks at the same moment: which of them looked. */
  const bothLookAt = (now: number) => Promise.all(instances.map((instance) => instance.app.waterStress.lookIfDue(now)));

  it('is made by one instance an hour, whichever comes first', async () => {
    // Later than the looks both made as they started, which one of them made.
    const start = Date.now() + 2 * HOUR_MS;
    const first = await bothLookAt(start);
    expect(first.filter(Boolean)).toHaveLength(1);
    // The other's timer, ten minutes later in the hour: already looked.
    expect(await instances[first[0] ? 1 : 0]!.app.waterStress.lookIfDue(start + 10 * 60_000)).toBe(false);
    // The next hour, one of them again.
    expect((await bothLookAt(start + HOUR_MS)).filter(Boolean)).toHaveLength(1);
    // The one that did not look first looks when its hour comes first (the other stopped, say).
    const other = instances[first[0] ? 1 : 0]!;
    expect(await other.app.waterStress.lookIfDue(start + 2 * HOUR_MS)).toBe(true);
    expect((await bothLookAt(start + 2 * HOUR_MS + 60_000)).filter(Boolean)).toHaveLength(0);
  });
});
