import type { TelemetryMessage } from '@pivot/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { quarantinedMessages } from '../../src/modules/quarantine/quarantine.table';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { createTestDatabase } from '../support/database';
import { type TestApp, createTestApp } from '../support/test-app';

/** The app's database, which can be made to fail as a database that is away does, and come back. */
function withOutages(handle: DatabaseHandle) {
  const outage: { error: Error | undefined; trivialQueriesFail: boolean } = {
    error: undefined,
    trivialQueriesFail: false,
  };
  const failing = (method: 'transaction' | 'execute') =>
    method === 'transaction' ? outage.error : outage.trivialQueriesFail ? outage.error : undefined;
  const db = new Proxy(handle.db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property !== 'transaction' && property !== 'execute') || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const error = failing(property);
        return error ? Promise.reject(error) : value.apply(receiver, args);
      };
    },
  });
  return { database: { ...handle, db }, outage };
}

let count = 0;
const machineId = () => `REFUSED-${Date.now().toString(36)}-${(count += 1)}`;
const report = (ts: number, changes: Partial<TelemetryMessage> = {}): TelemetryMessage => ({
  v: 1,
  ts,
  status: 'front',
  angle: 10,
  distance: 400,
  speed: 50,
  pressure: 2.4,
  flow: 90,
  ...changes,
});

describe('telemetry the database does not take', () => {
  let handle: DatabaseHandle;
  let outage: ReturnType<typeof withOutages>['outage'];
  let t: TestApp;
  beforeAll(async () => {
    handle = await createTestDatabase();
    const switchable = withOutages(handle);
    outage = switchable.outage;
    t = await createTestApp({}, { database: switchable.database });
  });
  afterAll(async () => {
    await t.close();
    await handle.close();
  });

  /** Hands reports to the ingest as the gateway does, all within one batch. */
  const push = (reports: { machineId: string; message: TelemetryMessage }[]) =>
    Promise.all(
      reports.map(({ machineId, message }) =>
        t.app.telemetry.handlers.telemetry({ machineId, deviceId: machineId }, message),
      ),
    );
  const storedOf = (machines: string[]) =>
    handle.db.select().from(telemetry).where(inArray(telemetry.machineId, machines));
  const quarantinedOf = (machines: string[]) =>
    handle.db.select().from(quarantinedMessages).where(inArray(quarantinedMessages.machineId, machines));
  const health = async () => (await t.client().get('/api/health')).body as { status: string; problems: string[] };

  it('stores the rest of a batch with a row the database refuses, and sets that row aside with its error', async () => {
    const [steady, faulty] = [machineId(), machineId()];
    const now = Date.now();
    // The NUL reaches the machine's latest state, whose alarm column (text) refuses it. The
    // protocol refuses it before, so it is handed to the ingest directly, past the gateway.
    const refused = report(now, { status: 'alarm', alarm: 'pressure\u0000loss' });
    const batch = [
      ...Array.from({ length: 6 }, (_, index) => ({ machineId: steady, message: report(now - 10_000 + index) })),
      ...Array.from({ length: 3 }, (_, index) => ({ machineId: faulty, message: report(now - 5000 + index) })),
      { machineId: faulty, message: refused },
    ];

    await push(batch);

    const stored = await storedOf([steady, faulty]);
    expect(stored.filter((row) => row.machineId === steady)).toHaveLength(6);
    expect(stored.filter((row) => row.machineId === faulty).map((row) => row.ts.getTime())).toEqual(
      expect.arrayContaining([now - 5000, now - 4999, now - 4998]),
    );
    expect(stored).toHaveLength(9);
    const state = (await t.app.telemetry.statesOf(handle.db, [faulty])).get(faulty);
    expect(state?.reportedAt?.getTime()).toBe(now - 4998);

    const [set] = await quarantinedOf([steady, faulty]);
    expect(set).toMatchObject({ machineId: faulty, deviceId: faulty, kind: 'telemetry', reason: 'refused' });
    expect(set!.detail).toContain('invalid byte sequence');
    expect(JSON.parse(set!.payloadHead.toString('utf8'))).toEqual(refused);
    expect(await quarantinedOf([steady, faulty])).toHaveLength(1);
    expect(await health()).toMatchObject({ status: 'ok', problems: [] });
  });

  it('keeps reports while the database is away (even a trivial query fails), and stores them all once it is back', async () => {
    const machine = machineId();
    const now = Date.now();
    outage.error = new Error('Connection terminated unexpectedly');
    outage.trivialQueriesFail = true;
    const stored = push(
      Array.from({ length: 5 }, (_, index) => ({ machineId: machine, message: report(now + index) })),
    );

    await t.app.telemetry.flush();
    expect(await storedOf([machine])).toEqual([]);
    outage.error = undefined;
    outage.trivialQueriesFail = false;

    await stored;
    expect(await storedOf([machine])).toHaveLength(5);
    expect(await quarantinedOf([machine])).toEqual([]);
  });

  it('says in health that ingestion fails and falls behind while the database refuses connections, and ok once stored', async () => {
    const machine = machineId();
    const now = Date.now();
    outage.error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const stored = push(
      Array.from({ length: 3 }, (_, index) => ({ machineId: machine, message: report(now + index) })),
    );

    await expect.poll(health).toMatchObject({
      status: 'degraded',
      problems: [
        expect.stringMatching(/^telemetry_store_failing: storing telemetry has failed since .*: 3 reports wait/),
      ],
    });
    const behind = await t.client().get('/api/health');
    expect(behind.status).toBe(200);
    await expect.poll(health, { timeout: 10_000, interval: 500 }).toMatchObject({
      problems: expect.arrayContaining([
        expect.stringMatching(/^telemetry_behind: telemetry reports have waited \d+ s/),
      ]),
    });

    outage.error = undefined;
    await stored;
    expect(await storedOf([machine])).toHaveLength(3);
    expect(await quarantinedOf([machine])).toEqual([]);
    expect(await health()).toMatchObject({ status: 'ok', problems: [] });
  });
});
