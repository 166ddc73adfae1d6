import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  LogListResponseSchema,
  type Webhook,
  WebhookListSchema,
  WebhookPayloadSchema,
  WebhookSchema,
  topics,
} from '@pivot/contracts';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSE_AFTER_FAILURES, WebhookSender, retryDelayMs } from '../../src/modules/webhooks/webhook-sender';
import type { ApiClient } from '../support/api-client';
import { addBareController } from '../support/devices';
import { buildSprinkler, grant } from '../support/fixtures';
import { startListener } from '../support/listener';
import { stopOwnLooks } from '../support/incident-watch';
import { type TestApp, createTestApp } from '../support/test-app';

type VerifySignature = (secret: string, header: string, rawBody: string, toleranceSeconds?: number) => boolean;

/** The verification snippet exactly as docs/alerts.md prints it, loaded as a module of its own. */
async function documentedVerifier(): Promise<VerifySignature> {
  const docs = await readFile(path.join(import.meta.dirname, '../../../../docs/alerts.md'), 'utf8');
  const block = /<!-- verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/alerts.md has no verify-snippet block');
  const file = path.join(os.tmpdir(), `pivot-verify-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, block);
  try {
    const module = (await import(pathToFileURL(file).href)) as { verifyPivotSignature: VerifySignature };
    return module.verifyPivotSignature;
  } finally {
    await rm(file, { force: true });
  }
}

describe('alert webhooks', () => {
  let t: TestApp;
  let admin: ApiClient;
  let farmer: { id: number; client: ApiClient };
  let slack: Awaited<ReturnType<typeof startListener>>;
  let fast: Awaited<ReturnType<typeof startListener>>;
  let hanging: Awaited<ReturnType<typeof startListener>>;
  let failing: Awaited<ReturnType<typeof startListener>>;
  let flaky: Awaited<ReturnType<typeof startListener>>;
  let flakyAnswer = 500;
  let controller: mqtt.MqttClient;
  let sprinklerId: number;
  const MACHINE = `HOOK-${Date.now().toString(36)}`;

  beforeAll(async () => {
    slack = await startListener();
    fast = await startListener();
    hanging = await startListener(() => undefined);
    failing = await startListener((_, response) => response.writeHead(500).end('down'));
    flaky = await startListener((_, response) => response.writeHead(flakyAnswer).end());
    const listeners = [slack, fast, hanging, failing, flaky];
    t = await createTestApp({
      OUTBOUND_ALLOWED_HOSTS: listeners.map((listener) => `127.0.0.1:${listener.port}`).join(','),
    });
    admin = await t.adminClient();
    const signedIn = await t.signedInUser({ language: 'en' });
    farmer = { id: signedIn.user.id, client: signedIn.client };
    ({ controller, sprinklerId } = await addBareController(t.app, admin, MACHINE));
    await grant(t, sprinklerId, farmer.id);
    const online = { v: 1, online: true, ts: Date.now() };
    await controller.publishAsync(topics.presence(MACHINE), JSON.stringify(online), { qos: 1, retain: true });
  });
  afterAll(async () => {
    await controller.endAsync();
    await t.close();
    await Promise.all([slack, fast, hanging, failing, flaky].map((listener) => listener.close()));
  });

  /** Records an alarm of a machine as the incident watch does: its log entry and its alerts in one transaction. */
  async function raiseAlarm(machine: { id: number; name: string; internalId: string }, detail = 'pressure_loss') {
    return t.database.db.transaction(async (tx) => {
      const logEntryId = await t.app.logs.record(tx, {
        eventType: 'sprinkler_alarm',
        actorUserId: null,
        sprinkler: machine,
        event: detail,
        ip: '',
      });
      await t.app.alerts.raiseAll(tx, [
        { logEntryId, kind: 'alarm', phase: 'began', sprinklerId: machine.id, sprinklerName: machine.name, detail },
      ]);
      return logEntryId;
    });
  }

  async function addWebhook(client: ApiClient, url: string, place = '/api/account/webhooks/'): Promise<Webhook> {
    const added = await client.post(place, { url });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return WebhookSchema.parse(added.body);
  }

  it('refuses webhooks and push subscriptions that point inside the network, in the page’s language', async () => {
    const refused = [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      // An allowed listener's address, but another port of it.
      `https://127.0.0.1:${slack.port + 1}/hook`,
    ];
    for (const url of refused) {
      const webhook = await farmer.client.post('/api/account/webhooks/', { url });
      expect({ url, status: webhook.status, body: webhook.body }).toEqual({
        url,
        status: 422,
        body: {
          code: 'outbound_address_refused',
          message: 'This address points inside the network and is not allowed',
        },
      });
      const push = await farmer.client.post('/api/push/subscriptions/', {
        endpoint: url,
        keys: { p256dh: 'BPk', auth: 'a1' },
      });
      expect({ url, status: push.status, code: (push.body as { code: string }).code }).toEqual({
        url,
        status: 422,
        code: 'outbound_address_refused',
      });
    }
    const plainHttp = await farmer.client.post(
      '/api/account/webhooks/',
      { url: 'http://hooks.example.com/x' },
      { headers: { 'accept-language': 'pl' } },
    );
    expect(plainHttp.body).toEqual({ code: 'outbound_https_required', message: 'Dozwolone są tylko adresy https://' });
    expect(WebhookListSchema.parse((await farmer.client.get('/api/account/webhooks/')).body)).toEqual([]);
  });

  it('delivers a signed alarm to a Slack-style webhook within 5 s of the report, verified by the documented snippet', async () => {
    const webhook = await addWebhook(farmer.client, `${slack.origin}/services/T000/B000/slack`);
    expect(webhook).toMatchObject({ scope: 'own', paused: false, lastDeliveryAt: null, lastError: null });
    expect(webhook.secret).toMatch(/^whsec_/);
    const start = Date.now();
    const base = { v: 1, status: 'front', angle: 90, distance: 300, speed: 50, pressure: 2.4, flow: 120 };
    await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify({ ...base, ts: start }), { qos: 1 });
    // A report's ts is its identity: on loopback the first can be acknowledged within the same
    // millisecond, and an alarm with the same ts would be dropped as its repeat.
    const alarmAt = Math.max(Date.now(), start + 1);
    const alarm = { ...base, status: 'alarm', alarm: 'pressure_loss', pressure: 0.1, flow: 0 };
    await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify({ ...alarm, ts: alarmAt }), { qos: 1 });

    await expect.poll(() => slack.received.length, { timeout: 5000, interval: 50 }).toBe(1);
    const [delivery] = slack.received;
    expect(delivery!.receivedAt - alarmAt).toBeLessThan(5000);
    const verify = await documentedVerifier();
    expect(verify(webhook.secret, String(delivery!.headers['x-pivot-signature']), delivery!.body)).toBe(true);
    expect(verify(webhook.secret, String(delivery!.headers['x-pivot-signature']), `${delivery!.body} `)).toBe(false);
    expect(verify('whsec_another', String(delivery!.headers['x-pivot-signature']), delivery!.body)).toBe(false);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-pivot-delivery']).toMatch(/^\d+$/);
    const payload = WebhookPayloadSchema.parse(JSON.parse(delivery!.body));
    expect(payload).toMatchObject({
      type: 'alert',
      kind: 'alarm',
      phase: 'began',
      language: 'en',
      title: 'Alarm',
      detail: 'pressure_loss',
      machine: { id: sprinklerId, internalId: MACHINE },
      link: `http://pivot.test/en/sprinklers/${sprinklerId}`,
    });
    expect(payload.text).toContain('reports an alarm: water pressure lost');
    await expect
      .poll(async () => WebhookListSchema.parse((await farmer.client.get('/api/account/webhooks/')).body)[0])
      .toMatchObject({ lastError: null, lastDeliveryAt: expect.any(Number), consecutiveFailures: 0 });
    // Only for this test: the next ones deliver on their own.
    await farmer.client.delete(`/api/account/webhooks/${webhook.id}/`);
  });

  it('never lets a receiver that does not answer delay another webhook’s alert', async () => {
    const machine = await buildSprinkler(t);
    await grant(t, machine.id, farmer.id);
    await addWebhook(admin, `${hanging.origin}/everything`, '/api/admin/webhooks/');
    const own = await addWebhook(farmer.client, `${fast.origin}/mine`);
    const before = { hanging: hanging.received.length, fast: fast.received.length };
    const raisedAt = Date.now();
    await raiseAlarm(machine);
    await expect.poll(() => hanging.received.length, { timeout: 3000, interval: 20 }).toBe(before.hanging + 1);
    // A second alert while the first request still hangs.
    const secondAt = Date.now();
    await raiseAlarm(machine, 'second');
    await expect.poll(() => fast.received.length, { timeout: 3000, interval: 20 }).toBe(before.fast + 2);
    expect(fast.received.at(-2)!.receivedAt - raisedAt).toBeLessThan(2500);
    expect(fast.received.at(-1)!.receivedAt - secondAt).toBeLessThan(2500);
    // The hanging one is counted as failing once its 5 s are up.
    await expect
      .poll(async () => WebhookListSchema.parse((await admin.get('/api/admin/webhooks/')).body)[0]?.lastError, {
        timeout: 8000,
      })
      .toBe('no answer within 5 s');
    await farmer.client.delete(`/api/account/webhooks/${own.id}/`);
    for (const webhook of WebhookListSchema.parse((await admin.get('/api/admin/webhooks/')).body)) {
      await admin.delete(`/api/admin/webhooks/${webhook.id}/`);
    }
  });

  describe('with the clock in the test’s hands', () => {
    beforeAll(async () => {
      await t.app.webhookSender.stop();
      await stopOwnLooks(t);
    });

    it('retries a failed delivery with growing delays, the same delivery each time, until it is taken', async () => {
      const machine = await buildSprinkler(t);
      await grant(t, machine.id, farmer.id);
      const webhook = await addWebhook(farmer.client, `${flaky.origin}/retry`);
      flakyAnswer = 503;
      await raiseAlarm(machine);
      let now = Date.now();
      await t.app.webhookSender.sendDue(now);
      expect(flaky.received).toHaveLength(1);
      await t.app.webhookSender.sendDue(now + retryDelayMs(1) - 1000);
      expect(flaky.received).toHaveLength(1);
      now += retryDelayMs(1);
      await t.app.webhookSender.sendDue(now);
      expect(flaky.received).toHaveLength(2);
      await t.app.webhookSender.sendDue(now + retryDelayMs(2) - 1000);
      expect(flaky.received).toHaveLength(2);
      flakyAnswer = 204;
      now += retryDelayMs(2);
      await t.app.webhookSender.sendDue(now);
      expect(flaky.received).toHaveLength(3);
      expect(new Set(flaky.received.map((request) => request.headers['x-pivot-delivery'])).size).toBe(1);
      expect(new Set(flaky.received.map((request) => JSON.parse(request.body).id as string)).size).toBe(1);
      const [listed] = WebhookListSchema.parse((await farmer.client.get('/api/account/webhooks/')).body);
      expect(listed).toMatchObject({ id: webhook.id, lastError: null, consecutiveFailures: 0 });
      await t.app.webhookSender.sendDue(now + 24 * 3600_000);
      expect(flaky.received).toHaveLength(3);
      expect([retryDelayMs(1), retryDelayMs(2), retryDelayMs(3), retryDelayMs(20)]).toEqual([
        30_000, 60_000, 120_000, 3_600_000,
      ]);
      await farmer.client.delete(`/api/account/webhooks/${webhook.id}/`);
    });

    it('pauses a webhook that keeps failing and tells its owner in the app', async () => {
      const machine = await buildSprinkler(t);
      await grant(t, machine.id, farmer.id);
      const webhook = await addWebhook(farmer.client, `${failing.origin}/down`);
      await raiseAlarm(machine);
      let now = Date.now();
      for (let attempt = 1; attempt <= PAUSE_AFTER_FAILURES + 5; attempt += 1) {
        await t.app.webhookSender.sendDue(now);
        now += retryDelayMs(attempt);
      }
      expect(failing.received).toHaveLength(PAUSE_AFTER_FAILURES);
      const [listed] = WebhookListSchema.parse((await farmer.client.get('/api/account/webhooks/')).body);
      expect(listed).toMatchObject({
        id: webhook.id,
        paused: true,
        pausedByServer: true,
        lastError: 'HTTP 500: down',
        consecutiveFailures: PAUSE_AFTER_FAILURES,
      });
      const log = LogListResponseSchema.parse((await farmer.client.get('/api/logs/')).body);
      expect(log.data.filter((entry) => entry.eventType === 'webhook_paused')).toEqual([
        expect.objectContaining({ event: `127.0.0.1:${failing.port}`, details: 'HTTP 500: down' }),
      ]);
      // Paused: a new alert is not queued for it.
      await raiseAlarm(machine);
      await t.app.webhookSender.sendDue(now);
      expect(failing.received).toHaveLength(PAUSE_AFTER_FAILURES);
      // Resumed: a clean count, and the next alert goes out.
      const resumed = await farmer.client.patch(`/api/account/webhooks/${webhook.id}/`, { paused: false });
      expect(resumed.body).toMatchObject({ paused: false, pausedByServer: false, consecutiveFailures: 0 });
      await raiseAlarm(machine);
      await t.app.webhookSender.sendDue(now);
      expect(failing.received).toHaveLength(PAUSE_AFTER_FAILURES + 1);
      await farmer.client.delete(`/api/account/webhooks/${webhook.id}/`);
    });

    it('gives a user’s webhook the alerts that user receives, none of a machine they muted; an administrator’s gets both', async () => {
      const [kept, muted] = [await buildSprinkler(t), await buildSprinkler(t)];
      await grant(t, kept.id, farmer.id);
      await grant(t, muted.id, farmer.id);
      const own = await addWebhook(farmer.client, `${fast.origin}/chosen`);
      const everything = await addWebhook(admin, `${fast.origin}/everything`, '/api/admin/webhooks/');
      const settings = { kinds: ['alarm'], channels: ['in_app'], mutedMachineIds: [muted.id] };
      expect((await farmer.client.put('/api/account/alerts/', settings)).status).toBe(200);
      await raiseAlarm(kept, 'kept');
      await raiseAlarm(muted, 'muted');
      await t.app.webhookSender.sendDue();
      const detailsAt = (path: string) =>
        fast.received
          .filter((request) => request.path === path)
          .map((request) => (JSON.parse(request.body) as { detail: string }).detail);
      expect(detailsAt('/chosen')).toEqual(['kept']);
      expect(detailsAt('/everything').sort()).toEqual(['kept', 'muted']);
      await farmer.client.delete('/api/account/alerts/');
      await farmer.client.delete(`/api/account/webhooks/${own.id}/`);
      await admin.delete(`/api/admin/webhooks/${everything.id}/`);
    });

    it('never has two senders deliver one row twice', async () => {
      const machine = await buildSprinkler(t);
      await grant(t, machine.id, farmer.id);
      const webhook = await addWebhook(farmer.client, `${fast.origin}/once`);
      const twin = new WebhookSender({
        db: t.database.db,
        outbound: t.app.outbound,
        logs: t.app.logs,
        logger: t.app.log,
      });
      for (let alert = 0; alert < 12; alert += 1) await raiseAlarm(machine, `alert ${alert}`);
      const now = Date.now();
      await Promise.all([t.app.webhookSender.sendDue(now), twin.sendDue(now), t.app.webhookSender.sendDue(now)]);
      const ids = fast.received
        .filter((request) => request.path === '/once')
        .map((request) => request.headers['x-pivot-delivery']);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
      await farmer.client.delete(`/api/account/webhooks/${webhook.id}/`);
    });

    it('sends a test at once, keeps each owner to their own webhooks and administrators to theirs', async () => {
      const webhook = await addWebhook(farmer.client, `${fast.origin}/test-me`, '/api/account/webhooks/');
      const tested = await farmer.client.post(`/api/account/webhooks/${webhook.id}/test`);
      expect(tested.body).toEqual({ delivered: true, status: 200, error: null });
      const received = fast.received.at(-1)!;
      expect(received.path).toBe('/test-me');
      expect(WebhookPayloadSchema.parse(JSON.parse(received.body))).toMatchObject({ type: 'test', language: 'en' });
      const verify = await documentedVerifier();
      expect(verify(webhook.secret, String(received.headers['x-pivot-signature']), received.body)).toBe(true);

      const other = await t.signedInUser();
      expect((await other.client.get('/api/account/webhooks/')).body).toEqual([]);
      expect((await other.client.delete(`/api/account/webhooks/${webhook.id}/`)).status).toBe(404);
      expect((await other.client.post(`/api/account/webhooks/${webhook.id}/test`)).status).toBe(404);
      expect((await farmer.client.get('/api/admin/webhooks/')).status).toBe(403);
      expect((await admin.get('/api/admin/webhooks/')).body).toEqual([]);

      const paused = await farmer.client.patch(`/api/account/webhooks/${webhook.id}/`, { paused: true });
      expect(paused.body).toMatchObject({ paused: true, pausedByServer: false, pausedAt: expect.any(Number) });
      expect((await farmer.client.delete(`/api/account/webhooks/${webhook.id}/`)).status).toBe(204);
      expect((await farmer.client.get('/api/account/webhooks/')).body).toEqual([]);
    });
  });
});
