import {
  SprinklerAdminListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListResponseSchema,
  SprinklerWithUsersSchema,
} from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { NOT_YET_REPORTED, buildProgram, buildSprinkler, grant, squareSector } from '../support/fixtures';
import { USER_PASSWORD, useTestApp } from '../support/test-app';

describe('machines and programs', () => {
  const t = useTestApp({ MAX_PROGRAMS_PER_MACHINE: '3' }, { signInAdmin: true });

  async function farmerWith(...sprinklerIds: number[]) {
    const farmer = await t.signedInUser();
    for (const id of sprinklerIds) await grant(t, id, farmer.user.id);
    return farmer;
  }

  it('lists the machines granted to a user, with lat and lng as numeric strings', async () => {
    const mine = await buildSprinkler(t, { name: 'Łąka północna', lat: '52.123456', lng: '17.5' });
    await buildSprinkler(t);
    const { client } = await farmerWith(mine.id);
    const response = await client.get('/api/sprinkler/');
    expect(response.body).toEqual([
      {
        id: mine.id,
        internalId: mine.internalId,
        name: 'Łąka północna',
        lat: '52.123456',
        lng: '17.5',
        ...NOT_YET_REPORTED,
      },
    ]);
    expect(SprinklerListResponseSchema.parse(response.body)[0]!.lat).toBe(52.123456);
  });

  it('answers 404 for every call about a machine the user was not granted, as if it did not exist', async () => {
    const theirs = await buildSprinkler(t);
    const program = (await t.admin.post(`/api/sprinkler/${theirs.id}/program/`, buildProgram('Theirs'))).body as {
      programs: { id: number }[];
    };
    const programId = program.programs[0]!.id;
    const { client } = await farmerWith();
    const calls = [
      client.get(`/api/sprinkler/${theirs.id}/`),
      client.post(`/api/sprinkler/${theirs.id}/motion`, { motion: 'front' }),
      client.post(`/api/sprinkler/${theirs.id}/program/`, buildProgram('Mine now')),
      client.patch(`/api/sprinkler/${theirs.id}/program/${programId}/`, buildProgram('Changed')),
      client.delete(`/api/sprinkler/${theirs.id}/program/${programId}/`),
      client.post(`/api/sprinkler/${theirs.id}/program/${programId}/send/`),
      client.get(`/api/sprinkler/${theirs.id}/events`),
      client.get('/api/sprinkler/999999/'),
    ];
    for (const response of await Promise.all(calls)) expect(response.status).toBe(404);
    const detail = SprinklerDetailSchema.parse((await t.admin.get(`/api/sprinkler/${theirs.id}/`)).body);
    expect(detail.programs.map((p) => p.name)).toEqual(['Theirs']);
  });

  it('creates, renames and deletes programs, logging each with the program and the machine', async () => {
    const pivot = await buildSprinkler(t, { name: 'Pole za stodołą' });
    const { client } = await farmerWith(pivot.id);
    const created = await client.post(
      `/api/sprinkler/${pivot.id}/program/`,
      buildProgram('Maize', [squareSector('A', 15), squareSector('Road', -1, 17.102)]),
    );
    expect(created.status).toBe(201);
    const detail = SprinklerDetailSchema.parse(created.body);
    const programId = detail.programs[0]!.id;
    expect(detail.programs[0]!.programData.features.map((f) => f.properties)).toEqual([
      { name: 'A', rate: 15 },
      { name: 'Road', rate: -1 },
    ]);

    const renamed = SprinklerDetailSchema.parse(
      (await client.patch(`/api/sprinkler/${pivot.id}/program/${programId}/`, buildProgram('Maize late'))).body,
    );
    expect(renamed.programs.map((p) => p.name)).toEqual(['Maize late']);
    const deleted = SprinklerDetailSchema.parse(
      (await client.delete(`/api/sprinkler/${pivot.id}/program/${programId}/`)).body,
    );
    expect(deleted.programs).toEqual([]);
    expect((await client.delete(`/api/sprinkler/${pivot.id}/program/${programId}/`)).status).toBe(404);

    const log = (await client.get('/api/logs/')).body as {
      data: { eventType: string; event: string; sprinklerName: string }[];
    };
    expect(log.data.slice(0, 3).map((e) => [e.eventType, e.event, e.sprinklerName])).toEqual([
      ['program_deleted', 'Maize late', 'Pole za stodołą'],
      ['program_updated', 'Maize late', 'Pole za stodołą'],
      ['program_added', 'Maize', 'Pole za stodołą'],
    ]);
  });

  it('refuses a program over the limit with 409, and a second program of the same name', async () => {
    const pivot = await buildSprinkler(t);
    for (const name of ['One', 'Two', 'Three']) {
      expect((await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram(name))).status).toBe(201);
    }
    const fourth = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram('Four'));
    expect(fourth.status).toBe(409);
    expect(fourth.body).toMatchObject({ code: 'too_many_programs' });
    const other = await buildSprinkler(t);
    await t.admin.post(`/api/sprinkler/${other.id}/program/`, buildProgram('Same'));
    const duplicate = await t.admin.post(`/api/sprinkler/${other.id}/program/`, buildProgram('Same'));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'program_name_taken' });
  });

  it("rejects invalid sectors with the spec's messages", async () => {
    const pivot = await buildSprinkler(t);
    const openRing = buildProgram('Open');
    openRing.programData.features[0]!.geometry.coordinates[0]!.pop();
    const cases = [
      [openRing, 'A polygon ring must end where it starts'],
      [buildProgram('No name', [squareSector('', 10)]), 'Enter the sector name'],
      [
        {
          name: 'Text rate',
          programData: {
            type: 'FeatureCollection',
            features: [{ ...squareSector('A', 1), properties: { name: 'A', rate: '12mm' } }],
          },
        },
        'The dose should be a numerical value',
      ],
      [
        {
          name: 'No rate',
          programData: {
            type: 'FeatureCollection',
            features: [{ ...squareSector('A', 1), properties: { name: 'A' } }],
          },
        },
        'Enter the sector rate',
      ],
    ] as const;
    for (const [body, message] of cases) {
      const response = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, body);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain(message);
    }
  });

  it('grants and revokes access; revoking access the user did not have is a 409', async () => {
    const pivot = await buildSprinkler(t, { name: 'Shared pivot' });
    const user = await t.buildUser();
    const granted = await t.admin.patch(`/api/sprinkler/${pivot.id}/permissions/`, { user: user.id, action: 'grant' });
    expect(SprinklerWithUsersSchema.parse(granted.body).users.map((u) => u.id)).toEqual([user.id]);
    expect(
      (await t.admin.patch(`/api/sprinkler/${pivot.id}/permissions/`, { user: user.id, action: 'grant' })).status,
    ).toBe(200);

    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    expect((await client.get(`/api/sprinkler/${pivot.id}/`)).status).toBe(200);

    const revoked = await t.admin.patch(`/api/sprinkler/${pivot.id}/permissions/`, { user: user.id, action: 'revoke' });
    expect(SprinklerWithUsersSchema.parse(revoked.body).users).toEqual([]);
    expect((await client.get(`/api/sprinkler/${pivot.id}/`)).status).toBe(404);
    const again = await t.admin.patch(`/api/sprinkler/${pivot.id}/permissions/`, { user: user.id, action: 'revoke' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'access_not_granted' });
    expect(
      (await t.admin.patch(`/api/sprinkler/${pivot.id}/permissions/`, { user: 999999, action: 'grant' })).status,
    ).toBe(404);
    expect((await t.admin.patch('/api/sprinkler/999999/permissions/', { user: user.id, action: 'grant' })).status).toBe(
      404,
    );

    const log = (await t.admin.get('/api/logs/')).body as { data: { eventType: string; event: string }[] };
    expect(log.data.slice(0, 2).map((e) => [e.eventType, e.event])).toEqual([
      ['sprinkler_access_revoked', user.email],
      ['sprinkler_access_granted', user.email],
    ]);
  });

  it('renames a machine and stores its area map (administrators only)', async () => {
    const pivot = await buildSprinkler(t);
    const areaMap = {
      type: 'FeatureCollection',
      features: [{ ...squareSector('Field', 0), properties: { kind: 'field', name: 'Field' } }],
    };
    const renamed = await t.admin.patch(`/api/sprinkler/${pivot.id}/`, { name: 'Nowa nazwa', areaMap });
    expect(renamed.body).toMatchObject({ id: pivot.id, name: 'Nowa nazwa' });
    expect(SprinklerDetailSchema.parse((await t.admin.get(`/api/sprinkler/${pivot.id}/`)).body).areaMap).toEqual(
      areaMap,
    );
    expect(
      (
        await t.admin.patch(`/api/sprinkler/${pivot.id}/`, {
          areaMap: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
              ],
            ],
          },
        })
      ).status,
    ).toBe(400);
    const { client } = await farmerWith(pivot.id);
    expect((await client.patch(`/api/sprinkler/${pivot.id}/`, { name: 'Mine' })).status).toBe(403);
    expect((await t.admin.patch('/api/sprinkler/999999/', { name: 'Ghost' })).status).toBe(404);
  });

  it('sets a machine’s low-pressure alert threshold, shown to those granted it (administrators set it)', async () => {
    const pivot = await buildSprinkler(t);
    const { client } = await farmerWith(pivot.id);
    expect(SprinklerDetailSchema.parse((await client.get(`/api/sprinkler/${pivot.id}/`)).body).lowPressureBar).toBe(1);
    const updated = await t.admin.patch(`/api/sprinkler/${pivot.id}/`, { lowPressureBar: 1.6 });
    expect(updated.body).toMatchObject({ id: pivot.id, lowPressureBar: 1.6 });
    expect(SprinklerDetailSchema.parse((await client.get(`/api/sprinkler/${pivot.id}/`)).body).lowPressureBar).toBe(
      1.6,
    );
    const [listed] = SprinklerListResponseSchema.parse((await client.get('/api/sprinkler/')).body);
    expect(listed!.lowPressureBar).toBe(1.6);
    expect((await t.admin.patch(`/api/sprinkler/${pivot.id}/`, { lowPressureBar: 0 })).body).toMatchObject({
      lowPressureBar: 0,
    });
    for (const wrong of [-0.1, 10.5, '1,5', null]) {
      expect((await t.admin.patch(`/api/sprinkler/${pivot.id}/`, { lowPressureBar: wrong })).status).toBe(400);
    }
    expect((await client.patch(`/api/sprinkler/${pivot.id}/`, { lowPressureBar: 3 })).status).toBe(403);
    const log = (await t.admin.get('/api/logs/', { query: { pageSize: 100 } })).body as {
      data: { eventType: string; details: string; sprinklerId: number | null }[];
    };
    expect(log.data.filter((entry) => entry.eventType === 'sprinkler_updated').map((entry) => entry.details)).toEqual(
      expect.arrayContaining(['low-pressure alert: 1 → 1.6 bar', 'low-pressure alert: 1.6 → 0 bar']),
    );
  });

  it('lists machines with their users for administrators, with search, paging and exclude', async () => {
    const tag = `adm${Date.now()}`;
    const a = await buildSprinkler(t, { name: `${tag} A` });
    await buildSprinkler(t, { name: `${tag} B` });
    const user = await t.buildUser();
    await grant(t, a.id, user.id);
    const page = SprinklerAdminListResponseSchema.parse(
      (await t.admin.get('/api/sprinkler/list/', { query: { search: tag, sort: 'name' } })).body,
    );
    expect(page.count).toBe(2);
    expect(page.data[0]!.users.map((u) => u.email)).toEqual([user.email]);
    const excluded = SprinklerAdminListResponseSchema.parse(
      (await t.admin.get('/api/sprinkler/list/', { query: { search: tag, exclude: user.id } })).body,
    );
    expect(excluded.data.map((row) => row.sprinkler.name)).toEqual([`${tag} B`]);
    const { client } = await farmerWith();
    expect((await client.get('/api/sprinkler/list/')).status).toBe(403);
  });
});
