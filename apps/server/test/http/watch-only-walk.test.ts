import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { buildProgram, buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

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
  'POST /api/user/refresh-token/': 'the session',
  'POST /api/user/logout/': 'the session (would end the walk)',
  'POST /api/user/set-password/': 'a mailed link, before signing in',
  'POST /api/user/password-email/': 'a mailed link, before signing in',
  'GET /api/user/': 'the account',
  'PATCH /api/user/': 'the account',
  'DELETE /api/user/': 'the account (would end the walk)',
  'POST /api/user/password/': 'the account',
  'GET /api/user/second-factor/': "the account's second factor",
  'POST /api/user/second-factor/': "the account's second factor",
  'POST /api/user/second-factor/setup/': "the account's second factor",
  'POST /api/user/second-factor/disable/': "the account's second factor",
  'POST /api/user/second-factor/recovery-codes/': "the account's second factor",
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
  // The broker's questions about devices (POST /api/broker/…) exist only with EMQX's HTTP
  // authentication configured, not in this app, and answer only the broker's shared secret.
};

/** Administrators only: a watcher, like every user who is not one, is refused with 403 forbidden. */
const ADMIN_ONLY = new Set([
  'GET /api/user/list/',
  'POST /api/user/',
  'PATCH /api/user/{id}/',
  'DELETE /api/user/{id}/',
  'DELETE /api/user/{id}/second-factor/',
  'GET /api/sprinkler/list/',
  'POST /api/sprinkler/',
  'PATCH /api/sprinkler/{id}/',
  'PATCH /api/sprinkler/{id}/permissions/',
  'PATCH /api/sprinkler/{id}/application-depth/',
  'GET /api/device/',
  'POST /api/device/',
  'POST /api/device/{machineId}/secret/',
  'DELETE /api/device/{machineId}/',
  'GET /api/device/accounts/',
  'POST /api/device/accounts/restore/',
  'GET /api/quarantine/',
  'GET /api/admin/alert-defaults/',
  'PUT /api/admin/alert-defaults/',
  'GET /api/admin/webhooks/',
  'POST /api/admin/webhooks/',
  'PATCH /api/admin/webhooks/{id}/',
  'DELETE /api/admin/webhooks/{id}/',
  'POST /api/admin/webhooks/{id}/test',
  'GET /api/admin/backup/',
  'GET /api/admin/backup/status/',
]);

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Answers that are not JSON, read raw: each must come as 200 of its type. */
const RAW_ANSWERS: Record<string, string> = {
  'GET /api/sprinkler/events': 'text/event-stream',
  'GET /api/sprinkler/{id}/events': 'text/event-stream',
  'GET /api/sprinkler/{id}/reports.csv': 'text/csv',
  'GET /api/sprinkler/{id}/as-applied.geojson': 'application/geo+json',
  'GET /api/sprinkler/{id}/as-applied.zip': 'application/zip',
  'GET /api/sprinkler/{id}/as-applied.taskdata.zip': 'application/zip',
  'GET /api/sprinkler/as-applied.geojson': 'application/geo+json',
  'GET /api/sprinkler/as-applied.zip': 'application/zip',
  'GET /api/sprinkler/as-applied.taskdata.zip': 'application/zip',
};

const today = new Date();
const dotted = `${String(today.getDate()).padStart(2, '0')}.${String(today.getMonth() + 1).padStart(2, '0')}.${today.getFullYear()}`;

/** What a call needs to pass validation, so that what answers is the access check. */
const QUERIES: Record<string, Record<string, string>> = {
  'GET /api/sprinkler/{id}/watermap/': { start: dotted, stop: dotted },
  'GET /api/sprinkler/{id}/reports.csv': { start: dotted, stop: dotted },
  'GET /api/sprinkler/{id}/as-applied.geojson': { start: dotted, stop: dotted },
  'GET /api/sprinkler/{id}/as-applied.zip': { start: dotted, stop: dotted },
  'GET /api/sprinkler/{id}/as-applied.taskdata.zip': { start: dotted, stop: dotted },
  'GET /api/sprinkler/as-applied.geojson': { start: dotted, stop: dotted },
  'GET /api/sprinkler/as-applied.zip': { start: dotted, stop: dotted },
  'GET /api/sprinkler/as-applied.taskdata.zip': { start: dotted, stop: dotted },
  'GET /api/weather-station/{id}/days/': { start: dotted, stop: dotted },
};

/** A station beside the machine: a watcher sees its days as the machine's map shows it. */
const STATION_ID = 'WS-WALK';
const BODIES: Record<string, unknown> = {
  'POST /api/sprinkler/{id}/motion': { motion: 'stop' },
  'POST /api/sprinkler/{id}/program/': buildProgram('Watched'),
  'PATCH /api/sprinkler/{id}/program/{programId}/': buildProgram('Renamed by a watcher'),
  'PATCH /api/sprinkler/{id}/application-depth/': { depthAtFullSpeed: 4 },
  'POST /api/sprinkler/{id}/records/': { kind: 'rain_gauge', date: dotted, area: { kind: 'machine' }, mm: 5 },
  'PUT /api/sprinkler/{id}/records/{recordId}/': { kind: 'rain_gauge', date: dotted, area: { kind: 'machine' }, mm: 6 },
  'PUT /api/sprinkler/{id}/crop-seasons/': [
    { name: 'Maize', polygon: null, crop: 'maize-grain', emergence: '01.05.2026', soil: 'loam' },
  ],
  'PUT /api/sprinkler/{id}/area-map/': { type: 'FeatureCollection', features: [] },
  'PUT /api/sprinkler/{id}/autopilot/': { mode: 'auto', rules: {} },
  'POST /api/sprinkler/{id}/prescription/': {
    fileName: 'prescription.geojson',
    content: Buffer.from(JSON.stringify(buildProgram('Prescribed').programData)).toString('base64'),
  },
};

describe('a watch grant, walked over every operation of the OpenAPI document', () => {
  let t: TestApp;
  let watcher: ApiClient;
  let admin: ApiClient;
  let address: string;
  let sprinklerId: number;
  let programId: number;
  const operations: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    const sprinkler = await buildSprinkler(t);
    sprinklerId = sprinkler.id;
    const created = await admin.post(`/api/sprinkler/${sprinklerId}/program/`, buildProgram('Maize'));
    expect(created.status).toBe(201);
    programId = (created.body as { programs: { id: number }[] }).programs[0]!.id;
    const signedIn = await t.signedInUser();
    watcher = signedIn.client;
    await grant(t, sprinklerId, signedIn.user.id, 'watch');
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
    const document = (await t.client().get('/api/docs/json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) operations.push(`${method.toUpperCase()} ${path}`);
    }
  });
  afterAll(() => t.close());

  const urlOf = (path: string) =>
    path
      .replace('/weather-station/{id}/', `/weather-station/${STATION_ID}/`)
      .replace('{id}', String(sprinklerId))
      .replace('{programId}', String(programId))
      // No record is needed: control is asked for before the record is looked up.
      .replace('{recordId}', '1')
      .replace('{machineId}', 'NOT-A-MACHINE');

  it('finds the machine routes in the document, and every operation listed above', () => {
    expect([...Object.keys(THE_USERS_OWN), ...ADMIN_ONLY].filter((listed) => !operations.includes(listed))).toEqual([]);
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/sprinkler/{id}/motion',
        'POST /api/sprinkler/{id}/program/{programId}/send/',
        'GET /api/sprinkler/{id}/',
      ]),
    );
  });

  it('refuses every unsafe call about the machine with 403 watch_only, and answers every safe one', async () => {
    const wrong: string[] = [];
    const walked: string[] = [];
    for (const operation of operations) {
      if (operation in THE_USERS_OWN) continue;
      const [method, path] = operation.split(' ') as [string, string];
      const url = urlOf(path);
      walked.push(operation);
      const rawType = RAW_ANSWERS[operation];
      if (rawType) {
        const controller = new AbortController();
        const query = new URLSearchParams(QUERIES[operation] ?? {});
        const response = await fetch(`${address}${url}${query.size > 0 ? `?${query}` : ''}`, {
          headers: { authorization: `Bearer ${watcher.access}` },
          signal: controller.signal,
        });
        // A stream never ends by itself: it is closed once its answer began; a file is read whole.
        if (rawType === 'text/event-stream') controller.abort();
        else await response.text();
        if (response.status !== 200 || !response.headers.get('content-type')?.includes(rawType)) {
          wrong.push(`${operation} → ${response.status}`);
        }
        continue;
      }
      const response = await watcher.request(method as 'POST', url, BODIES[operation], {
        query: QUERIES[operation] ?? {},
        headers: { 'accept-language': 'en' },
      });
      const code = (response.body as { code?: string } | undefined)?.code;
      if (ADMIN_ONLY.has(operation)) {
        if (response.status !== 403 || code !== 'forbidden')
          wrong.push(`${operation} (admin only) → ${response.status}`);
      } else if (UNSAFE.has(method)) {
        const message = (response.body as { message?: string }).message;
        if (response.status !== 403 || code !== 'watch_only' || !message?.includes('only watch')) {
          wrong.push(`${operation} → ${response.status} ${JSON.stringify(response.body)}`);
        }
      } else if (response.status !== 200) {
        wrong.push(`${operation} → ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The walk reached every kind of call: reads, the streams, the refused changes, admin routes.
    expect(walked).toEqual(
      expect.arrayContaining([...Object.keys(RAW_ANSWERS), ...Object.keys(BODIES), 'GET /api/logs/']),
    );
  });

  it('left the machine as it was: its program unchanged, no command sent', async () => {
    const detail = (await admin.get(`/api/sprinkler/${sprinklerId}/`)).body as { programs: { name: string }[] };
    expect(detail.programs.map((program) => program.name)).toEqual(['Maize']);
    const log = (await admin.get('/api/logs/')).body as { data: { eventType: string }[] };
    expect(log.data.map((entry) => entry.eventType)).toEqual(['program_added']);
  });

  it('says why in the language of the page', async () => {
    const motion = { motion: 'front' };
    const url = `/api/sprinkler/${sprinklerId}/motion`;
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
