import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { buildProgram, buildSprinkler } from '../support/fixtures';
import {
  ADMINISTRATORS_ONLY,
  RAW_ANSWERS,
  type WalkTarget,
  callOperation,
  documentedOperations,
} from '../support/operation-walk';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * Every operation of the OpenAPI document, walked as the manager of farm A against farm B's ids:
 * B's machine, program, farm, owner and weather station. Each call that names one of them answers
 * 404 (as if it did not exist) or, for the server's administrators' own calls, 403; each list
 * answers without B's machine; and B is left as it was (docs/roles.md). Any operation added later
 * is walked too.
 */

/** The caller's own account, session and settings: walked in users' own tests, not about a farm. */
const THE_CALLERS_OWN = [
  /^POST \/api\/user\/(login|refresh-token|logout|set-password|password-email)/,
  /^(GET|PATCH|DELETE) \/api\/user\/$/,
  /^POST \/api\/user\/password\/$/,
  /^(GET|POST) \/api\/user\/second-factor\//,
  /^(GET|POST|DELETE) \/api\/user\/passkeys\//,
  /^POST \/api\/logs\/read\/$/,
  /\/api\/account\//,
  /\/api\/push\//,
  /^GET \/api\/alerts\/events$/,
  // An invitation's page and its acceptance: its mailed token is the proof, whoever calls.
  /^(GET|POST) \/api\/invitation\//,
  /^GET \/api\/health$/,
];

/** Calls about no one thing: each answers, without farm B's machine in it. */
const LISTS = [
  'GET /api/sprinkler/',
  'GET /api/sprinkler/page/',
  'GET /api/sprinkler/events',
  'GET /api/logs/',
  'GET /api/farm/',
  'GET /api/sprinkler/as-applied.geojson',
  'GET /api/dealer/',
  'GET /api/dealer/fleet/',
];

describe("a farm's manager, and a member the farm removed, walked over every operation against its ids", () => {
  let t: TestApp;
  let admin: ApiClient;
  let manager: ApiClient;
  let formerMember: ApiClient;
  let address: string;
  let target: WalkTarget;
  let operations: string[];
  const machineOfB = { internalId: 'FARM-B-PIVOT', name: 'Pivot of farm B' };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    const farmA = (await admin.post('/api/farm/', { name: 'Farm A' })).body as { id: number };
    const farmB = (await admin.post('/api/farm/', { name: 'Farm B' })).body as { id: number };
    // A's machine stands 100 km from B's: no weather station of B's is near it.
    const pivotA = await buildSprinkler(t, { lat: '53.200000', lng: '18.100000' });
    const pivotB = await buildSprinkler(t, machineOfB);
    for (const [sprinkler, farm] of [
      [pivotA, farmA],
      [pivotB, farmB],
    ] as const) {
      expect((await admin.patch(`/api/sprinkler/${sprinkler.id}/farm/`, { farmId: farm.id })).status).toBe(200);
    }
    const signedIn = await t.signedInUser();
    manager = signedIn.client;
    const ownerOfB = await t.buildUser();
    for (const [farm, email, role] of [
      [farmA, signedIn.user.email, 'manager'],
      [farmB, ownerOfB.email, 'owner'],
    ] as const) {
      expect((await admin.post(`/api/farm/${farm.id}/members/`, { email, role })).status).toBe(201);
    }
    const program = await admin.post(`/api/sprinkler/${pivotB.id}/program/`, buildProgram('Maize of B'));
    await t.database.db.insert(weatherReadings).values({
      stationId: 'WS-FARM-B',
      ts: new Date(),
      lat: Number(pivotB.lat),
      lng: Number(pivotB.lng),
      temperature: 20,
      humidity: 60,
      rain: 0,
    });
    const invitation = await admin.post(`/api/farm/${farmB.id}/invitations/`, {
      email: 'invited@farm-b.pl',
      role: 'member',
    });
    expect(invitation.status).toBe(201);
    // B grants a dealer the manager of A is no member of: nothing of it reaches them.
    const dealer = (await admin.post('/api/dealer/', { name: 'Dealer of farm B' })).body as { id: number };
    expect(
      (await admin.put(`/api/farm/${farmB.id}/dealers/${dealer.id}/`, { level: 'control', machines: 'all' })).status,
    ).toBe(200);
    target = {
      dealerId: dealer.id,
      invitationId: (invitation.body as { id: number }).id,
      sprinklerId: pivotB.id,
      programId: (program.body as { programs: { id: number }[] }).programs[0]!.id,
      farmId: farmB.id,
      userId: ownerOfB.id,
      stationId: 'WS-FARM-B',
    };
    // Once B's member with control of its machine, until B's owner removed them.
    const former = await t.signedInUser();
    formerMember = former.client;
    await admin.post(`/api/farm/${farmB.id}/members/`, { email: former.user.email, role: 'member' });
    await admin.patch(`/api/sprinkler/${pivotB.id}/permissions/`, { user: former.user.id, action: 'grant' });
    expect((await formerMember.get(`/api/sprinkler/${pivotB.id}/`)).status).toBe(200);
    expect((await admin.delete(`/api/farm/${farmB.id}/members/${former.user.id}/`)).status).toBe(204);
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    operations = await documentedOperations(t);
  });
  afterAll(() => t.close());

  /** Walks every operation about farm B's ids as `client`: 404 for each, 403 for the administrators' calls. */
  async function walkFindingNothing(client: ApiClient) {
    const wrong: string[] = [];
    let walked = 0;
    for (const operation of operations) {
      if (THE_CALLERS_OWN.some((own) => own.test(operation)) || LISTS.includes(operation)) continue;
      walked += 1;
      const answer = await callOperation(client, address, operation, target);
      const said = `${operation} → ${answer.status} ${answer.code ?? ''}`;
      if (ADMINISTRATORS_ONLY.has(operation)) {
        if (answer.status !== 403 || answer.code !== 'forbidden') wrong.push(said);
      } else if (operation.includes('{')) {
        if (answer.status !== 404) wrong.push(said);
      } else if (answer.status !== 200) {
        wrong.push(`${said} (no id: expected to answer)`);
      }
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(60);
  }

  it("finds nothing of farm B: 404 for each of its ids, 403 for the administrators' calls", async () => {
    await walkFindingNothing(manager);
  });

  it('finds nothing of farm B either as the member B removed, whose grant went with them', async () => {
    await walkFindingNothing(formerMember);
  });

  it("lists without farm B's machine", async () => {
    for (const operation of LISTS) {
      const answer = await callOperation(manager, address, operation, target);
      expect(answer.status, operation).toBe(200);
      if (RAW_ANSWERS[operation]) continue;
      const [, path] = operation.split(' ') as [string, string];
      const text = JSON.stringify((await manager.get(path)).body);
      expect(text, operation).not.toContain(machineOfB.internalId);
      expect(text, operation).not.toContain('Farm B');
    }
  });

  it('left farm B as it was', async () => {
    const detail = (await admin.get(`/api/farm/${target.farmId}/`)).body as {
      farm: { name: string };
      members: { id: number; role: string }[];
      machines: { name: string }[];
    };
    expect(detail.farm.name).toBe('Farm B');
    expect(detail.members.map((member) => [member.id, member.role])).toEqual([[target.userId, 'owner']]);
    expect(detail.machines.map((machine) => machine.name)).toEqual([machineOfB.name]);
    const machine = (await admin.get(`/api/sprinkler/${target.sprinklerId}/`)).body as {
      programs: { name: string }[];
    };
    expect(machine.programs.map((program) => program.name)).toEqual(['Maize of B']);
  });
});
