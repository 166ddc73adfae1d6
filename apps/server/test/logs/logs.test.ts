import { LogListResponseSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { logEntries } from '../../src/modules/logs/logs.table';
import { sprinklerAccess } from '../../src/modules/access/access.table';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import type { ApiClient } from '../support/api-client';
import { USER_PASSWORD, useTestApp } from '../support/test-app';

describe('activity log', () => {
  const t = useTestApp({}, { signInAdmin: true });

  async function logOf(client: ApiClient, query: Record<string, string | number> = {}) {
    const response = await client.get('/api/logs/', { query });
    expect(response.status).toBe(200);
    return LogListResponseSchema.parse(response.body);
  }

  it("records account events with who, whom and the caller's address", async () => {
    const created = (await t.admin.post('/api/user/', { first_name: 'Ola', last_name: 'Mazur', email: 'ola@farm.pl' }))
      .body as { id: number };
    await t.admin.patch(`/api/user/${created.id}/`, { phone: '+48 500 600 700' });
    const log = await logOf(t.admin);
    const [updated, createdEntry] = log.data;
    expect(createdEntry).toMatchObject({
      eventType: 'user_created',
      event: 'ola@farm.pl',
      details: 'admin@pivot.test',
      ip: '127.0.0.1',
      sprinklerName: null,
    });
    expect(updated).toMatchObject({ eventType: 'user_updated', event: 'ola@farm.pl' });
    expect(updated!.timestamp).toBeGreaterThan(Date.now() - 60_000);
  });

  it('shows ordinary users only the entries about themselves and their machines', async () => {
    const farmer = await t.buildUser();
    const neighbour = await t.buildUser();
    const [ownPivot, otherPivot] = await t.database.db
      .insert(sprinklers)
      .values([
        { internalId: 'OWN-1', name: 'Own pivot', lat: '52.0', lng: '21.0' },
        { internalId: 'OTHER-1', name: 'Other pivot', lat: '52.0', lng: '21.0' },
      ])
      .returning();
    await t.database.db.insert(sprinklerAccess).values({ sprinklerId: ownPivot!.id, userId: farmer.id });
    await t.database.db.insert(logEntries).values([
      {
        eventType: 'sprinkler_motion_success',
        sprinklerId: ownPivot!.id,
        sprinklerName: 'Own pivot',
        sprinklerInternalId: 'OWN-1',
        event: 'front',
        actorUserId: null,
      },
      {
        eventType: 'sprinkler_motion_success',
        sprinklerId: otherPivot!.id,
        sprinklerName: 'Other pivot',
        sprinklerInternalId: 'OTHER-1',
        event: 'back',
        actorUserId: neighbour.id,
      },
    ]);
    await t.admin.patch(`/api/user/${farmer.id}/`, { first_name: 'Renamed' });
    await t.admin.patch(`/api/user/${neighbour.id}/`, { first_name: 'Renamed' });

    const client = t.client();
    await client.login(farmer.email, USER_PASSWORD);
    const log = await logOf(client);
    expect(log.data.map((entry) => [entry.eventType, entry.sprinklerName ?? entry.event])).toEqual([
      ['user_updated', farmer.email],
      ['sprinkler_motion_success', 'Own pivot'],
    ]);
    expect(log.count).toBe(2);

    const everything = await logOf(t.admin, { pageSize: 100 });
    expect(everything.data.some((entry) => entry.sprinklerName === 'Other pivot')).toBe(true);
  });

  it('filters unread entries and marks them read', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    await t.admin.patch(`/api/user/${user.id}/`, { last_name: 'Nowy' });
    const unread = await logOf(client, { type: 'unread' });
    expect(unread.count).toBe(1);
    expect(unread.data[0]).toMatchObject({ eventType: 'user_updated', unread: true });

    expect((await client.post('/api/logs/read/')).status).toBe(200);
    expect((await logOf(client, { type: 'unread' })).count).toBe(0);
    const all = await logOf(client);
    expect(all.data.every((entry) => !entry.unread)).toBe(true);

    await t.admin.patch(`/api/user/${user.id}/`, { last_name: 'Nowszy' });
    expect((await logOf(client, { type: 'unread' })).count).toBe(1);
  });

  it('marks read only the entries named, of those the reader may see', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    for (let change = 1; change <= 19; change += 1) {
      await t.admin.patch(`/api/user/${user.id}/`, { last_name: `Zmiana ${change}` });
    }
    const shown = (await logOf(client, { pageSize: 4 })).data.map((entry) => entry.id);
    const stranger = await t.buildUser();
    await t.admin.patch(`/api/user/${stranger.id}/`, { last_name: 'Obcy' });
    const [othersEntry] = (await logOf(t.admin, { pageSize: 1 })).data;
    expect(othersEntry).toMatchObject({ event: stranger.email });

    const marked = await client.post('/api/logs/read/', { ids: [...shown, othersEntry!.id, 2_000_000_000] });
    expect(marked.status).toBe(200);

    const unread = await logOf(client, { type: 'unread', pageSize: 100 });
    expect(unread.count).toBe(15);
    expect(unread.data.map((entry) => entry.id)).not.toEqual(expect.arrayContaining([shown[0]]));
    const firstPage = await logOf(client, { pageSize: 5 });
    expect(firstPage.data.map((entry) => entry.unread)).toEqual([false, false, false, false, true]);
    expect((await logOf(t.admin, { type: 'unread', pageSize: 100 })).data.map((entry) => entry.id)).toContain(
      othersEntry!.id,
    );

    expect((await client.post('/api/logs/read/', { ids: [] })).status).toBe(400);
    expect((await client.post('/api/logs/read/')).status).toBe(200);
    expect((await logOf(client, { type: 'unread' })).count).toBe(0);
  });

  it('pages the log, newest first', async () => {
    const first = await logOf(t.admin, { page: 1, pageSize: 2 });
    const second = await logOf(t.admin, { page: 2, pageSize: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.count).toBe(second.count);
    expect(first.data[1]!.timestamp).toBeGreaterThanOrEqual(second.data[0]!.timestamp);
    expect(first.data.map((entry) => entry.id)).not.toContain(second.data[0]!.id);
  });

  it('rejects an unknown filter', async () => {
    expect((await t.admin.get('/api/logs/', { query: { type: 'everything' } })).status).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await t.client().get('/api/logs/')).status).toBe(401);
  });
});
