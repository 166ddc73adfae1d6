import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { buildProgram, buildSprinkler } from '../support/fixtures';
import {
  ADMINISTRATORS_ONLY,
  OPERATIONS_WITH_BODIES,
  RAW_ANSWERS,
  type WalkTarget,
  callOperation,
  documentedOperations,
} from '../support/operation-walk';
import { ADMIN_EMAIL, type TestApp, createTestApp } from '../support/test-app';

/**
 * Every operation of the OpenAPI document, walked as a user with a *watch* grant on a machine:
 * each call about the machine that changes something answers 403 watch_only, each that reads
 * answers 200. The operations outside the machine's scope are listed below with why; any other
 * operation, a new per-machine route added later included, is walked, so it fails this test until
 * it refuses a watcher (or is listed here, with a reason).
 */

/** The user's own things and the session: a watcher uses them like every other user. */
const THE_USERS_OWN: Record<string, string> = {
  'GET /api/health': 'public health check',
  'POST /api/user/login/': 'signing in',
  'POST /api/user/login/second-factor/': 'signing in',
  'POST /api/user/login/passkey/': 'signing in',
  'POST /api/user/refresh-token/': 'the session',
  'POST /api/user/logout/': 'the session (would end the walk)',
  'POST /api/user/set-password/': 'a mailed link, before signing in',
  'POST /api/user/password-email/': 'a mailed link, before signing in',
  'GET /api/invitation/{id}/': 'a mailed link, before signing in',
  'POST /api/invitation/{id}/accept/': 'a mailed link, before signing in',
  'GET /api/user/': 'the account',
  'PATCH /api/user/': 'the account',
  'DELETE /api/user/': 'the account (would end the walk)',
  'POST /api/user/password/': 'the account',
  'GET /api/user/second-factor/': "the account's second factor",
  'POST /api/user/second-factor/': "the account's second factor",
  'POST /api/user/second-factor/setup/': "the account's second factor",
  'POST /api/user/second-factor/disable/': "the account's second factor",
  'POST /api/user/second-factor/recovery-codes/': "the account's second factor",
  'GET /api/user/passkeys/': "the account's passkeys",
  'POST /api/user/passkeys/options/': "the account's passkeys",
  'POST /api/user/passkeys/': "the account's passkeys",
  'DELETE /api/user/passkeys/{id}/': "the account's passkeys",
  'POST /api/logs/read/': "the reader's own read marks",
  'GET /api/account/alerts/': "the user's alert settings",
  'PUT /api/account/alerts/': "the user's alert settings",
  'DELETE /api/account/alerts/': "the user's alert settings",
  'GET /api/alerts/events': "the user's alerts as they come (a stream of the user's own)",
  'GET /api/push/key': 'Web Push of the user',
  'POST /api/push/subscriptions/': 'Web Push of the user',
  'DELETE /api/push/subscriptions/': 'Web Push of the user',
  'GET /api/account/webhooks/': "the user's own alert webhooks",
  'POST /api/account/webhooks/': "the user's own alert webhooks",
  'PATCH /api/account/webhooks/{id}/': "the user's own alert webhooks",
  'DELETE /api/account/webhooks/{id}/': "the user's own alert webhooks",
  'POST /api/account/webhooks/{id}/test': "the user's own alert webhooks",
  'GET /api/farm/': 'the farms the user belongs to',
  // The broker's questions about devices (POST /api/broker/…) exist only with EMQX's HTTP
  // authentication configured, not in this app, and answer only the broker's shared secret.
};

/**
 * The administrators' calls, and those of the people who run the machine's farm: a watcher, a
 * member of the farm, is refused with 403 forbidden.
 */
const FORBIDDEN_TO_A_MEMBER = new Set([
  ...ADMINISTRATORS_ONLY,
  'GET /api/farm/{farmId}/',
  'PATCH /api/farm/{farmId}/',
  'PUT /api/farm/{farmId}/second-factor/',
  'GET /api/farm/{farmId}/invitations/',
  'POST /api/farm/{farmId}/invitations/',
  'POST /api/farm/{farmId}/invitations/{invitationId}/resend/',
  'DELETE /api/farm/{farmId}/invitations/{invitationId}/',
  'GET /api/farm/{farmId}/dealers/',
  'PUT /api/farm/{farmId}/dealers/{dealerId}/',
  'DELETE /api/farm/{farmId}/dealers/{dealerId}/',
  'PATCH /api/farm/{farmId}/members/{userId}/',
  'DELETE /api/farm/{farmId}/members/{userId}/',
  'PATCH /api/sprinkler/{id}/',
  'PATCH /api/sprinkler/{id}/permissions/',
]);

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A station beside the machine: a watcher sees its days as the machine's map shows it. */
const STATION_ID = 'WS-WALK';

describe('a watch grant, walked over every operation of the OpenAPI document', () => {
  let t: TestApp;
  let watcher: ApiClient;
  let dealerWatcher: ApiClient;
  let admin: ApiClient;
  let address: string;
  let target: WalkTarget;
  let operations: string[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    const sprinkler = await buildSprinkler(t);
    const created = await admin.post(`/api/sprinkler/${sprinkler.id}/program/`, buildProgram('Maize'));
    expect(created.status).toBe(201);
    // The machine is a farm's, run by the administrator as its owner; the watcher is its member.
    const farm = (await admin.post('/api/farm/', { name: 'Walked farm' })).body as { id: number };
    expect((await admin.patch(`/api/sprinkler/${sprinkler.id}/farm/`, { farmId: farm.id })).status).toBe(200);
    expect((await admin.post(`/api/farm/${farm.id}/members/`, { email: ADMIN_EMAIL, role: 'owner' })).status).toBe(201);
    const signedIn = await t.signedInUser();
    watcher = signedIn.client;
    const granted = await admin.patch(`/api/sprinkler/${sprinkler.id}/permissions/`, {
      user: signedIn.user.id,
      action: 'grant',
      level: 'watch',
    });
    expect(granted.status).toBe(200);
    const invitation = await admin.post(`/api/farm/${farm.id}/invitations/`, {
      email: 'invited@pivot.test',
      role: 'member',
    });
    expect(invitation.status).toBe(201);
    const dealer = await admin.post('/api/dealer/', { name: 'Walked dealer' });
    expect(dealer.status).toBe(201);
    // A dealer's member, watching the farm's machines through the farm's grant to their dealer.
    const technician = await t.signedInUser();
    dealerWatcher = technician.client;
    const dealerId = (dealer.body as { id: number }).id;
    expect((await admin.post(`/api/dealer/${dealerId}/members/`, { email: technician.user.email })).status).toBe(204);
    const dealt = await admin.put(`/api/farm/${farm.id}/dealers/${dealerId}/`, { level: 'watch', machines: 'all' });
    expect(dealt.status).toBe(200);
    target = {
      dealerId,
      invitationId: (invitation.body as { id: number }).id,
      sprinklerId: sprinkler.id,
      programId: (created.body as { programs: { id: number }[] }).programs[0]!.id,
      farmId: farm.id,
      userId: (await t.app.users.findByEmail(ADMIN_EMAIL))!.id,
      stationId: STATION_ID,
    };
    await t.database.db.insert(weatherReadings).values({
      stationId: STATION_ID,
      ts: new Date(),
      lat: Number(sprinkler.lat),
      lng: Number(sprinkler.lng),
      temperature: 20,
      humidity: 60,
      rain: 0,
    });
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    operations = await documentedOperations(t);
  });
  afterAll(() => t.close());

  it('finds the machine routes in the document, and every operation listed above', () => {
    expect(
      [...Object.keys(THE_USERS_OWN), ...FORBIDDEN_TO_A_MEMBER].filter((listed) => !operations.includes(listed)),
    ).toEqual([]);
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/sprinkler/{id}/motion',
        'POST /api/sprinkler/{id}/program/{programId}/send/',
        'GET /api/sprinkler/{id}/',
      ]),
    );
  });

  /**
   * Walks every operation as a watcher: each unsafe call about the machine is 403 watch_only,
   * each safe one answers; the farm's own calls answer `farmCalls` (a member is refused them, to
   * a dealer's member the farm is none of theirs), the administrators' 403.
   */
  async function walkAsWatcher(client: ApiClient, farmCalls: 403 | 404) {
    const wrong: string[] = [];
    const walked: string[] = [];
    for (const operation of operations) {
      if (operation in THE_USERS_OWN) continue;
      walked.push(operation);
      const answer = await callOperation(client, address, operation, target);
      const said = `${operation} → ${answer.status} ${answer.code ?? ''}`;
      const rawType = RAW_ANSWERS[operation];
      if (rawType) {
        if (answer.status !== 200 || !answer.type.includes(rawType)) wrong.push(said);
      } else if (
        operation.includes('/api/farm/{farmId}/') &&
        farmCalls === 404 &&
        !ADMINISTRATORS_ONLY.has(operation)
      ) {
        if (answer.status !== 404) wrong.push(said);
      } else if (FORBIDDEN_TO_A_MEMBER.has(operation)) {
        if (answer.status !== 403 || answer.code !== 'forbidden') wrong.push(said);
      } else if (UNSAFE.has(operation.split(' ')[0]!)) {
        if (answer.status !== 403 || answer.code !== 'watch_only' || !answer.message?.includes('only watch')) {
          wrong.push(`${said} ${answer.message}`);
        }
      } else if (answer.status !== 200) {
        wrong.push(said);
      }
    }
    expect(wrong).toEqual([]);
    // The walk reached every kind of call: reads, the streams, the refused changes, admin routes.
    expect(walked).toEqual(
      expect.arrayContaining([...Object.keys(RAW_ANSWERS), ...OPERATIONS_WITH_BODIES, 'GET /api/logs/']),
    );
  }

  it('refuses every unsafe call about the machine with 403 watch_only, and answers every safe one', async () => {
    await walkAsWatcher(watcher, 403);
  });

  it("does the same for a dealer's member watching through the farm's grant, to whom the farm's own calls are 404", async () => {
    await walkAsWatcher(dealerWatcher, 404);
  });

  it('left the machine as it was: its program unchanged, no command sent', async () => {
    const detail = (await admin.get(`/api/sprinkler/${target.sprinklerId}/`)).body as {
      name: string;
      programs: { name: string }[];
    };
    expect(detail.programs.map((program) => program.name)).toEqual(['Maize']);
    expect(detail.name).not.toBe('Renamed by a walker');
    const log = (await admin.get('/api/logs/')).body as { data: { eventType: string }[] };
    expect(log.data.map((entry) => entry.eventType).reverse()).toEqual([
      'program_added',
      'farm_created',
      'sprinkler_farm_changed',
      'farm_member_added',
      'farm_member_added',
      'sprinkler_access_granted',
      'farm_invitation_sent',
      'dealer_member_added',
      'farm_dealer_granted',
    ]);
  });

  it('says why in the language of the page', async () => {
    const motion = { motion: 'front' };
    const url = `/api/sprinkler/${target.sprinklerId}/motion`;
    const english = await watcher.post(url, motion, { headers: { 'accept-language': 'en' } });
    expect(english.body).toEqual({
      code: 'watch_only',
      message: 'You can only watch this machine: ask an administrator for control',
    });
    const polish = await watcher.post(url, motion, { headers: { 'accept-language': 'pl' } });
    expect(polish.body).toEqual({
      code: 'watch_only',
      message: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie',
    });
  });
});
