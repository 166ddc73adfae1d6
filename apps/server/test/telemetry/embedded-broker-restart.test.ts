import { SprinklerDetailSchema } from '@pivot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../support/database';
import { buildSprinkler } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * The embedded broker lives and dies with the server: after a kill -9 the database still says
 * which machines were online, though no controller is connected to the broker that starts with
 * the server again. Until a controller connects and says so, its machine is offline, and a
 * command to it is refused at once rather than sent to nobody and timed out as unanswered.
 */
/** This file is about the embedded broker, even where the other tests run on a shared one. */
const EMBEDDED_BROKER = { MQTT_URL: '', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' };

describe('a server started again on its embedded broker', () => {
  it('takes every machine as offline until its controller is back, and refuses a command at once', async () => {
    const database = await createTestDatabase();
    const apps: TestApp[] = [];
    try {
      const first = await createTestApp(EMBEDDED_BROKER, { database });
      apps.push(first);
      const machine = await buildSprinkler(first);
      const presence = (t: TestApp, online: boolean) =>
        t.app.telemetry.handlers.presence(
          { machineId: machine.internalId, deviceId: machine.internalId },
          { v: 1, online, ts: Date.now() },
        );
      const online = async (t: TestApp) =>
        (await t.app.telemetry.statesOf(t.database.db, [machine.internalId])).get(machine.internalId)?.online;
      // Online, heard a moment ago; the server's own connection goes first on close, so the
      // controller's going is never stored: what a kill -9 leaves in the database.
      await presence(first, true);
      expect(await online(first)).toBe(true);
      await first.close();

      const second = await createTestApp({ ...EMBEDDED_BROKER, COMMAND_TIMEOUT_MS: '5000' }, { database });
      apps.push(second);
      expect(await online(second)).toBe(false);
      const admin = await second.adminClient();
      expect(SprinklerDetailSchema.parse((await admin.get(`/api/sprinkler/${machine.id}`)).body).online).toBe(false);
      const started = Date.now();
      const command = await admin.post(`/api/sprinkler/${machine.id}/motion`, { motion: 'front' });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(command.status).toBe(409);
      expect(command.body).toMatchObject({ code: 'sprinkler_offline' });

      // Its controller connects again and says so.
      await presence(second, true);
      await vi.waitFor(async () => expect(await online(second)).toBe(true));
    } finally {
      for (const app of apps.reverse()) await app.close().catch(() => undefined);
      await database.close();
    }
  });
});
