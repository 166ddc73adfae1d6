import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { ReceiptJournal } from '../../src/gateway/receipt-journal';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { createTestDatabase } from '../support/database';
import { registerController } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

const MACHINE = `JOURNAL-${Date.now().toString(36)}`;
const SERVER_ID = 'journal-test';

describe('a report the server acknowledged and was killed before storing', () => {
  let database: DatabaseHandle;
  let dataDir: string;
  let restarted: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-journal-app-'));
  });
  afterAll(async () => {
    await restarted?.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is stored when the server starts again, and then forgotten', async () => {
    const env = { DATA_DIR: dataDir, SERVER_ID };
    const first = await createTestApp(env, { database });
    await registerController(first.app, MACHINE);
    await first.close();
    // What the killed server had journalled and acknowledged, but not stored.
    const ts = Date.now() - 60_000;
    const report = { v: 1, ts, status: 'front', angle: 42, distance: 400, speed: 50, pressure: 2.4, flow: 90 };
    const journalDir = path.join(dataDir, 'receipts', SERVER_ID);
    ReceiptJournal.open(journalDir).append({
      topic: topics.telemetry(MACHINE),
      payload: Buffer.from(JSON.stringify(report)),
    });

    restarted = await createTestApp(env, { database });
    await expect
      .poll(async () => {
        await restarted.app.telemetry.flush();
        return database.db.select().from(telemetry).where(eq(telemetry.machineId, MACHINE));
      })
      .toMatchObject([{ ts: new Date(ts), angle: 42 }]);
    const leftovers = async () => {
      const files = (await readdir(journalDir)).filter((name) => name.endsWith('.journal'));
      return files.length === 0 ? [] : ReceiptJournal.open(journalDir).leftovers();
    };
    await expect.poll(leftovers).toEqual([]);
  });
});
