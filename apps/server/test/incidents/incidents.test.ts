import { type Alert, AlertSchema, LogListResponseSchema, PushPayloadSchema, topics } from '@pivot/contracts';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherIncidentWatch, stopOwnLooks } from '../support/incident-watch';
import type { ApiClient } from '../support/api-client';
import { addBareController } from '../support/devices';
import { grant } from '../support/fixtures';
import { browserSubscriptionKeys, decryptPush, startPushService, verifyVapid } from '../support/push-service';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const MACHINE = `INCIDENT-${Date.now().toString(36)}`;

/** The live alerts a signed-in user's app receives, as they arrive. */
async function alertStream(address: string, client: ApiClient) {
  const controller = new AbortController();
  const response = await fetch(`${address}/api/alerts/events`, {
    headers: { authorization: `Bearer ${client.access}` },
    signal: controller.signal,
  });
  const received: Alert[] = [];
  const reader = response.body!.getReader();
  let text = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += new TextDecoder().decode(value);
      for (const match of text.matchAll(/event: alert\ndata: (.+)\n\n/g))
        received.push(AlertSchema.parse(JSON.parse(match[1]!)));
      text = text.slice(text.lastIndexOf('\n\n') + 2);
    }
  })();
  return { received, close: () => controller.abort() };
}

/** Nodemailer writes Polish letters quoted-printable: =C5=82 is "ł". */
function decodeQuotedPrintable(mail: string): string {
  const bytes = mail.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe('incidents and their alerts', () => {
  let t: TestApp;
  let admin: ApiClient;
  let controller: mqtt.MqttClient;
  let sprinklerId: number;
  let address: string;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  const people: Record<'farmer' | 'visitor' | 'outsider', { id: number; email: string; client: ApiClient }> =
    {} as never;

  beforeAll(async () => {
    pushService = await startPushService();
    t = await createTestApp({}, { pushAgent: pushService.agent });
    admin = await t.adminClient();
    ({ controller, sprinklerId } = await addBareController(t.app, admin, MACHINE));
    const online = { v: 1, online: true, ts: Date.now() };
    await controller.publishAsync(topics.presence(MACHINE), JSON.stringify(online), { qos: 1, retain: true });
    for (const [name, language] of [
      ['farmer', 'pl'],
      ['visitor', 'en'],
      ['outsider', 'pl'],
    ] as const) {
      const user = await t.buildUser({ language });
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      people[name] = { id: user.id, email: user.email, client };
      if (name !== 'outsider') await grant(t, sprinklerId, user.id);
    }
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The tests look at the machines themselves, at the moments their reports are dated; the
    // watch's own look every second, at the real time, would judge those reports early.
    await stopOwnLooks(t);
  });
  afterAll(async () => {
    await controller.endAsync();
    await t.close();
    await pushService.close();
  });

  /** Publishes a report measured at `ts`, stores it, and (unless told not to) has the incident watch and the live feed look at `ts`. */
  async function report(
    ts: number,
    values: Record<string, unknown>,
    { look = true, machineId = MACHINE, from = controller } = {},
  ) {
    const message = {
      v: 1,
      ts,
      status: 'front',
      angle: 90,
      distance: 300,
      speed: 50,
      pressure: 2.4,
      flow: 120,
      ...values,
    };
    await from.publishAsync(topics.telemetry(machineId), JSON.stringify(message), { qos: 1 });
    await expect
      .poll(async () => {
        await t.app.telemetry.flush();
        return (await t.app.telemetry.statesOf(t.database.db, [machineId])).get(machineId)?.reportedAt?.getTime();
      })
      .toBe(ts);
    if (!look) return;
    await t.app.incidents.lookOnce(ts);
    await t.app.alertFeed.lookOnce();
  }

  async function logged(eventType: string, machineId = MACHINE) {
    const log = LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    return log.data.filter((entry) => entry.eventType === eventType && entry.sprinklerInternalId === machineId);
  }

  it('raises an alarm once, tells those who may see the machine live and by one mail in their language, and ends it once', async () => {
    const farmerStream = await alertStream(address, people.farmer.client);
    const outsiderStream = await alertStream(address, people.outsider.client);
    const start = Date.now();
    await report(start, {});
    await report(start + 1000, { status: 'alarm', alarm: 'pressure_loss', pressure: 0.1, flow: 0 });
    await report(start + 2000, { status: 'alarm', alarm: 'pressure_loss', pressure: 0.1, flow: 0 });

    await expect
      .poll(() => farmerStream.received)
      .toEqual([expect.objectContaining({ kind: 'alarm', phase: 'began', sprinklerId, detail: 'pressure_loss' })]);
    expect(await logged('sprinkler_alarm')).toHaveLength(1);

    await t.app.alertMailer.mailDue(Date.now() + 21_000);
    const mails = (await t.outboxMails()).map(decodeQuotedPrintable);
    const mailTo = (email: string) => mails.filter((mail) => mail.includes(`To: ${email}`));
    expect(mailTo(people.farmer.email)).toHaveLength(1);
    expect(mailTo(people.farmer.email)[0]).toContain('zgłasza alarm: spadek ciśnienia wody');
    expect(mailTo(people.visitor.email)[0]).toContain('reports an alarm: water pressure lost');
    expect(mailTo(people.outsider.email)).toEqual([]);
    // Nothing waits any more: a second round mails nobody.
    await t.app.alertMailer.mailDue(Date.now() + 60_000);
    expect(await t.outboxMails()).toHaveLength(mails.length);

    // Well again: it ends after a minute of looking well, once.
    await report(start + 3000, {});
    await report(start + 33_000, {});
    expect(await logged('sprinkler_alarm_cleared')).toEqual([]);
    await report(start + 64_000, {});
    await report(start + 65_000, {});
    expect(await logged('sprinkler_alarm_cleared')).toHaveLength(1);
    await expect.poll(() => farmerStream.received.map((alert) => alert.phase)).toEqual(['began', 'ended']);
    expect(outsiderStream.received).toEqual([]);
    farmerStream.close();
    outsiderStream.close();
  });

  it('raises each incident once when several instances look at the same moment', async () => {
    const twin = anotherIncidentWatch(t);
    const ts = Date.now() + 120_000;
    await report(ts, { status: 'front' });
    await report(ts + 1000, { status: 'stop', pressure: 0, flow: 0 }, { look: false });
    await Promise.all([t.app.incidents.lookOnce(ts + 1000), twin.lookOnce(ts + 1000)]);
    const stopped = await logged('sprinkler_stopped_unexpectedly');
    expect(stopped).toHaveLength(1);
    // Moving and stopping again before the incident ended is the same incident.
    await report(ts + 2000, { status: 'front' });
    await report(ts + 3000, { status: 'stop', pressure: 0, flow: 0 });
    expect(await logged('sprinkler_stopped_unexpectedly')).toEqual(stopped);
  });

  it('alerts nobody of a machine they muted, and keeps each user to their own choice', async () => {
    const muted = { kinds: ['alarm', 'offline'], channels: ['in_app'], mutedMachineIds: [sprinklerId] };
    const saved = await people.farmer.client.put('/api/account/alerts/', muted);
    expect(saved.body).toEqual({ ...muted, usesDefaults: false });
    expect(
      (await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]))(sprinklerId, 'alarm', 'in_app'),
    ).not.toContain(people.farmer.id);
    expect((await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]))(sprinklerId, 'alarm', 'in_app')).toContain(
      people.visitor.id,
    );
    const reset = await people.farmer.client.delete('/api/account/alerts/');
    expect(reset.body).toMatchObject({ mutedMachineIds: [], usesDefaults: true });
    expect((await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]))(sprinklerId, 'alarm', 'email')).toContain(
      people.farmer.id,
    );
  });

  it('pushes an incident to each browser that asked, encrypted for it and signed with the server’s key', async () => {
    // Whatever earlier incidents queued goes out first, to browsers that did not ask yet.
    await t.app.pushSender.sendDue();
    const farmerPhone = browserSubscriptionKeys();
    const visitorLaptop = browserSubscriptionKeys();
    const subscribe = (client: ApiClient, endpoint: string, keys: { p256dh: string; auth: string }) =>
      client.post('/api/push/subscriptions/', { endpoint: `${pushService.origin}${endpoint}`, keys });
    expect((await subscribe(people.farmer.client, '/farmer-phone', farmerPhone.keys)).status).toBe(204);
    expect((await subscribe(people.farmer.client, '/gone-old-phone', browserSubscriptionKeys().keys)).status).toBe(204);
    expect((await subscribe(people.visitor.client, '/visitor-laptop', visitorLaptop.keys)).status).toBe(204);
    expect((await subscribe(people.outsider.client, '/outsider', browserSubscriptionKeys().keys)).status).toBe(204);
    const { publicKey } = (await people.farmer.client.get('/api/push/key')).body as { publicKey: string };

    const start = Date.now() + 150_000;
    await report(start, {});
    await report(start + 1000, { status: 'alarm', alarm: 'pressure_loss', pressure: 0.1, flow: 0 });
    await t.app.pushSender.sendDue();

    const pushesTo = (endpoint: string) => pushService.received.filter((push) => push.path === endpoint);
    expect(pushesTo('/farmer-phone')).toHaveLength(1);
    expect(pushesTo('/gone-old-phone')).toHaveLength(1);
    expect(pushesTo('/visitor-laptop')).toHaveLength(1);
    expect(pushesTo('/outsider')).toEqual([]);

    const [farmerPush] = pushesTo('/farmer-phone');
    expect(farmerPush!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', urgency: 'high', ttl: '3600' });
    const claims = verifyVapid(String(farmerPush!.headers.authorization), publicKey);
    expect(claims.aud).toBe(pushService.origin);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    const farmerPayload = PushPayloadSchema.parse(JSON.parse(decryptPush(farmerPush!.body, farmerPhone)));
    expect(farmerPayload).toEqual({
      title: expect.stringContaining(MACHINE),
      body: expect.stringContaining('zgłasza alarm: spadek ciśnienia wody'),
      url: `/sprinklers/${sprinklerId}`,
      tag: `${sprinklerId}-alarm`,
    });
    const visitorPayload = PushPayloadSchema.parse(
      JSON.parse(decryptPush(pushesTo('/visitor-laptop')[0]!.body, visitorLaptop)),
    );
    expect(visitorPayload).toMatchObject({
      body: expect.stringContaining('reports an alarm'),
      url: `/en/sprinklers/${sprinklerId}`,
    });
    // Another browser's keys do not open it.
    expect(() => decryptPush(farmerPush!.body, visitorLaptop)).toThrow();

    // The browser the push service called gone is forgotten; the next incident phase skips it.
    await report(start + 2000, {});
    await report(start + 64_000, {});
    await report(start + 65_000, {});
    await t.app.pushSender.sendDue();
    expect(pushesTo('/farmer-phone')).toHaveLength(2);
    expect(pushesTo('/gone-old-phone')).toHaveLength(1);
  });

  it('judges low pressure against the threshold an administrator set for the machine', async () => {
    expect((await admin.patch(`/api/sprinkler/${sprinklerId}/`, { lowPressureBar: 3 })).status).toBe(200);
    // Watering at 2.4 bar, fine by the default of 1 bar, is low by this machine's 3 bar.
    const start = Date.now() + 230_000;
    await report(start, { pressure: 2.4 });
    await report(start + 10_000, { pressure: 2.4 });
    expect(await logged('sprinkler_low_pressure')).toEqual([]);
    await report(start + 21_000, { pressure: 2.4 });
    const low = await logged('sprinkler_low_pressure');
    expect(low).toHaveLength(1);
    expect(low[0]!.event).toBe('2.4 bar');
    await t.app.alertMailer.mailDue(Date.now() + 21_000);
    const mails = (await t.outboxMails()).map(decodeQuotedPrintable);
    // Polish writes the decimal comma.
    expect(mails.filter((mail) => mail.includes(`To: ${people.farmer.email}`)).at(-1)).toContain(
      `Ciśnienie na maszynie ${MACHINE} spadło do 2,4 bar podczas pracy`,
    );
  });

  it('takes no pressure for a fault where the program has the machine cross a forbidden zone dry', async () => {
    const machineId = `${MACHINE}-ROAD`;
    const { controller: roadside } = await addBareController(t.app, admin, machineId);
    const online = { v: 1, online: true, ts: Date.now() };
    await roadside.publishAsync(topics.presence(machineId), JSON.stringify(online), { qos: 1, retain: true });
    // A road east of the pivot (a forbidden zone) and a field west of it, both within its 300 m arm.
    const strip = (name: string, rate: number, west: number, east: number) => ({
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [west, 52.199],
            [east, 52.199],
            [east, 52.201],
            [west, 52.201],
            [west, 52.199],
          ],
        ],
      },
      properties: { name, rate },
    });
    const programData = {
      type: 'FeatureCollection',
      features: [strip('Droga', -1, 17.1, 17.106), strip('Pole', 12, 17.094, 17.1)],
    };
    const program = { name: 'Przez drogę', uploadedAt: Date.now(), programData };
    await roadside.publishAsync(topics.program(machineId), JSON.stringify({ v: 1, program }), { qos: 1, retain: true });
    await expect
      .poll(async () => (await t.app.telemetry.statesOf(t.database.db, [machineId])).get(machineId)?.programName)
      .toBe('Przez drogę');
    const on = { machineId, from: roadside };

    // Over the road it moves dry on purpose, with no pressure: no incident however long.
    const start = Date.now();
    for (const after of [0, 10_000, 21_000, 40_000]) {
      await report(start + after, { angle: 90, pressure: 0, flow: 0 }, on);
    }
    expect(await logged('sprinkler_low_pressure', machineId)).toEqual([]);
    // Over the field it should water: the same pressure there is a fault.
    for (const after of [41_000, 51_000, 62_000]) {
      await report(start + after, { angle: 270, pressure: 0, flow: 0 }, on);
    }
    expect(await logged('sprinkler_low_pressure', machineId)).toHaveLength(1);
    for (const topic of [topics.program(machineId), topics.presence(machineId)]) {
      await roadside.publishAsync(topic, '', { qos: 1, retain: true });
    }
    await roadside.endAsync();
  });

  it('tells the app of an alarm as the look that raised it commits, not at the feed’s next look', async () => {
    const machineId = `${MACHINE}-WAKE`;
    const other = await addBareController(t.app, admin, machineId);
    const online = { v: 1, online: true, ts: Date.now() };
    await other.controller.publishAsync(topics.presence(machineId), JSON.stringify(online), { qos: 1, retain: true });
    await grant(t, other.sprinklerId, people.farmer.id);
    // The feed's look each second stops, and a stopped feed hears no news: this one hears it by name,
    // so only the news of the committed look can tell the app.
    await t.app.alertFeed.stop();
    t.app.alerts.wakeOnRaise(() => void t.app.alertFeed.lookOnce());
    const farmerStream = await alertStream(address, people.farmer.client);
    const alarm = { status: 'alarm', alarm: 'pressure_loss', pressure: 0.1, flow: 0 };
    const start = Date.now();
    for (const [ts, values] of [
      [start, {}],
      [start + 1000, alarm],
      [start + 2000, alarm],
    ] as const) {
      await report(ts, values, { machineId, from: other.controller, look: false });
      await t.app.incidents.lookOnce(ts);
    }

    await expect
      .poll(() => farmerStream.received)
      .toEqual([expect.objectContaining({ kind: 'alarm', phase: 'began', sprinklerId: other.sprinklerId })]);
    farmerStream.close();
    await other.controller.endAsync();
  });
});
