import crypto from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDeliveries } from '../../src/modules/alerts/alerts.repository';
import { pushSubscriptions } from '../../src/modules/alerts/alerts.table';
import {
  CONCURRENT_PUSHES,
  GIVE_UP_SUBSCRIPTION,
  MAX_SUBSCRIPTIONS_PER_USER,
  PUSH_TIMEOUT_MS,
} from '../../src/modules/alerts/push-sender';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler } from '../support/fixtures';
import { browserSubscriptionKeys, decryptPush, startPushService } from '../support/push-service';
import { type TestApp, createTestApp } from '../support/test-app';

/** How late another user's alarm push may be while one user's push services hang. */
const NOT_DELAYED_MS = 3000;

describe('Web Push that one user cannot abuse', () => {
  let t: TestApp;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    pushService = await startPushService();
    t = await createTestApp({}, { pushAgent: pushService.agent });
  });
  afterAll(async () => {
    await t.close();
    await pushService.close();
  });

  const subscribe = (client: ApiClient, path: string, keys = browserSubscriptionKeys().keys, language = 'en') =>
    client.post(
      '/api/push/subscriptions/',
      { endpoint: `${pushService.origin}${path}`, keys },
      { headers: { 'accept-language': language } },
    );
  const subscriptionsOf = (userId: number) =>
    t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

  /** An alarm of a machine recorded and queued as a push for the given users, as the incident watch does. */
  async function alarmPushedTo(userIds: number[]) {
    const machine = await buildSprinkler(t);
    const logEntryId = await t.app.logs.record(t.database.db, {
      eventType: 'sprinkler_alarm',
      actorUserId: null,
      sprinkler: { id: machine.id, name: machine.name, internalId: machine.internalId },
      event: 'pressure_loss',
      ip: '',
    });
    await insertDeliveries(
      t.database.db,
      userIds.map((userId) => ({ userId, logEntryId, channel: 'push' as const })),
    );
    return machine;
  }

  it(`sends every browser's push at once: push services that never answer delay nobody else's alarm`, async () => {
    // Whatever is queued goes first.
    await t.app.pushSender.sendDue();
    const attacker = await t.signedInUser();
    const accomplice = await t.signedInUser();
    const farmer = await t.signedInUser();
    for (let index = 0; index < 15; index += 1) {
      expect((await subscribe(attacker.client, `/silent-attacker-${index}`)).status).toBe(204);
    }
    for (let index = 0; index < MAX_SUBSCRIPTIONS_PER_USER; index += 1) {
      expect((await subscribe(accomplice.client, `/silent-accomplice-${index}`)).status).toBe(204);
    }
    const phone = browserSubscriptionKeys();
    expect((await subscribe(farmer.client, '/farmer-phone', phone.keys)).status).toBe(204);

    const farmerPushes = () => pushService.received.filter((push) => push.path === '/farmer-phone');
    /** Queues an alarm and measures how long until the farmer's phone has it. */
    const farmerHears = async (userIds: number[]) => {
      const heardBefore = farmerPushes().length;
      const queuedAt = Date.now();
      const machine = await alarmPushedTo(userIds);
      await expect.poll(() => farmerPushes().length, { timeout: NOT_DELAYED_MS, interval: 50 }).toBe(heardBefore + 1);
      const delay = Date.now() - queuedAt;
      expect(JSON.parse(decryptPush(farmerPushes().at(-1)!.body, phone))).toMatchObject({
        tag: `${machine.id}-alarm`,
      });
      return delay;
    };

    // One alarm for all three (sent by the sender's own round, every second): the farmer's phone
    // is not queued behind the hanging services.
    const sameAlarm = farmerHears([attacker.user.id, accomplice.user.id, farmer.user.id]);
    expect(await sameAlarm).toBeLessThan(NOT_DELAYED_MS);
    // Another alarm while those services still hang: the next round sends it, it does not wait for them.
    await expect.poll(() => pushService.unanswered.length).toBe(2 * MAX_SUBSCRIPTIONS_PER_USER);
    const nextAlarm = await farmerHears([farmer.user.id]);
    expect(nextAlarm).toBeLessThan(NOT_DELAYED_MS);

    // Each hanging service is given PUSH_TIMEOUT_MS, all side by side, not one after another.
    const waitingFrom = Date.now();
    await t.app.pushSender.sendDue();
    expect(Date.now() - waitingFrom).toBeLessThan(2 * PUSH_TIMEOUT_MS);
    // Fewer than the slots for pushes in flight: the third user's pushes found one free at once.
    expect(2 * MAX_SUBSCRIPTIONS_PER_USER).toBeLessThan(CONCURRENT_PUSHES);
    // Each hanging service counts one failure; the farmer's phone none.
    const attackers = await subscriptionsOf(attacker.user.id);
    expect(attackers).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(attackers.every((subscription) => subscription.failures === 1)).toBe(true);
    expect((await subscriptionsOf(farmer.user.id))[0]).toMatchObject({ failures: 0, failingSince: null });
  }, 60_000);

  it('gives up a subscription that kept failing over a long time, and keeps one that failed briefly', async () => {
    const user = await t.signedInUser();
    expect((await subscribe(user.client, '/silent-long-dead')).status).toBe(204);
    expect((await subscribe(user.client, '/silent-just-failing')).status).toBe(204);
    const [longDead, justFailing] = await subscriptionsOf(user.user.id).then((rows) =>
      ['/silent-long-dead', '/silent-just-failing'].map((path) => rows.find((row) => row.endpoint.endsWith(path))!),
    );
    // Failing in a row for longer than the give-up time; the other just as often, but lately.
    await t.database.db
      .update(pushSubscriptions)
      .set({
        failures: GIVE_UP_SUBSCRIPTION.failures - 1,
        failingSince: sql`now() - make_interval(secs => ${GIVE_UP_SUBSCRIPTION.seconds + 60})`,
      })
      .where(eq(pushSubscriptions.id, longDead!.id));
    await t.database.db
      .update(pushSubscriptions)
      .set({ failures: GIVE_UP_SUBSCRIPTION.failures - 1, failingSince: sql`now() - interval '1 minute'` })
      .where(eq(pushSubscriptions.id, justFailing!.id));

    await alarmPushedTo([user.user.id]);
    await t.app.pushSender.sendDue();
    const left = await t.database.db
      .select()
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.id, [longDead!.id, justFailing!.id]));
    expect(left).toEqual([expect.objectContaining({ id: justFailing!.id, failures: GIVE_UP_SUBSCRIPTION.failures })]);
  }, 60_000);

  it('moves an endpoint to another account only with the keys it was stored with', async () => {
    const owner = await t.signedInUser();
    const other = await t.signedInUser();
    const browser = browserSubscriptionKeys();
    expect((await subscribe(owner.client, '/shared-phone', browser.keys)).status).toBe(204);

    const takeover = await subscribe(other.client, '/shared-phone', browserSubscriptionKeys().keys);
    expect(takeover.status).toBe(409);
    expect(takeover.body).toMatchObject({
      code: 'push_endpoint_taken',
      message: expect.stringMatching(/another account/),
    });
    const inPolish = await subscribe(other.client, '/shared-phone', browserSubscriptionKeys().keys, 'pl');
    expect(inPolish.body).toMatchObject({
      code: 'push_endpoint_taken',
      message: expect.stringMatching(/innego konta/),
    });
    expect(await subscriptionsOf(owner.user.id)).toEqual([
      expect.objectContaining({ endpoint: `${pushService.origin}/shared-phone`, p256dh: browser.keys.p256dh }),
    ]);

    // The same browser, signed in with the other account: it presents the keys, so it moves.
    expect((await subscribe(other.client, '/shared-phone', browser.keys)).status).toBe(204);
    expect(await subscriptionsOf(owner.user.id)).toEqual([]);
    expect(await subscriptionsOf(other.user.id)).toHaveLength(1);
    // Its own account may renew its keys.
    expect((await subscribe(other.client, '/shared-phone', browserSubscriptionKeys().keys)).status).toBe(204);
  });

  it('refuses push keys that are not a P-256 public key and a 16-byte secret', async () => {
    const { client, user } = await t.signedInUser();
    const good = browserSubscriptionKeys().keys;
    const point = Buffer.from(good.p256dh, 'base64url');
    const offCurve = Buffer.from(point);
    offCurve[64]! ^= 1;
    const compressed = crypto.ECDH.convertKey(point, 'prime256v1', undefined, undefined, 'compressed') as Buffer;
    for (const keys of [
      { ...good, p256dh: offCurve.toString('base64url') },
      { ...good, p256dh: compressed.toString('base64url') },
      { ...good, p256dh: Buffer.alloc(65, 4).toString('base64url') },
      { ...good, auth: crypto.randomBytes(15).toString('base64url') },
    ]) {
      const refused = await subscribe(client, '/bad-keys', keys);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'push_keys_invalid', message: expect.stringMatching(/not valid/) });
    }
    expect(await subscriptionsOf(user.id)).toEqual([]);
    expect((await subscribe(client, '/good-keys', good)).status).toBe(204);
    expect(await subscriptionsOf(user.id)).toEqual([expect.objectContaining(good)]);
  });

  it(`keeps ${MAX_SUBSCRIPTIONS_PER_USER} browsers a user: a new one replaces a failing one, else the oldest`, async () => {
    const { client, user } = await t.signedInUser();
    for (let index = 0; index < MAX_SUBSCRIPTIONS_PER_USER; index += 1) {
      expect((await subscribe(client, `/phone-${index}`)).status).toBe(204);
    }
    expect((await subscribe(client, '/new-phone')).status).toBe(204);
    const endpoints = (await subscriptionsOf(user.id)).map((row) => row.endpoint.slice(pushService.origin.length));
    expect(endpoints).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(endpoints).not.toContain('/phone-0');
    expect(endpoints).toContain('/new-phone');

    await t.database.db
      .update(pushSubscriptions)
      .set({ failures: 2, failingSince: sql`now()` })
      .where(eq(pushSubscriptions.endpoint, `${pushService.origin}/phone-5`));
    expect((await subscribe(client, '/newer-phone')).status).toBe(204);
    const after = (await subscriptionsOf(user.id)).map((row) => row.endpoint.slice(pushService.origin.length));
    expect(after).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(after).not.toContain('/phone-5');
    expect(after).toContain('/phone-1');
    expect(after).toContain('/newer-phone');
  });
});
