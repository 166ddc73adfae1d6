import type { LogListResponse, SprinklerAdminListResponse, SprinklerDetail, UserListResponse } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sprinklerAccess } from '../../src/modules/access/access.table';
import type { ApiClient } from '../support/api-client';
import { buildProgram, buildSprinkler } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

describe('two levels of access: watch and control', () => {
  let t: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
  });
  afterAll(() => t.close());

  const permissions = (sprinklerId: number, body: Record<string, unknown>) =>
    admin.patch(`/api/sprinkler/${sprinklerId}/permissions/`, body);
  const levelIn = (detail: SprinklerDetail, userId: number) => detail.users.find((user) => user.id === userId)?.level;

  it('grants watch when asked, control when no level is named, and changes the level on a second grant', async () => {
    const sprinkler = await buildSprinkler(t);
    const { user, client } = await t.signedInUser();
    const other = await t.buildUser();

    const watched = await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'watch' });
    expect(watched.status).toBe(200);
    expect(watched.body).toMatchObject({ users: [{ id: user.id, level: 'watch' }] });
    await permissions(sprinkler.id, { user: other.id, action: 'grant' });

    const seen = (await client.get(`/api/sprinkler/${sprinkler.id}/`)).body as SprinklerDetail;
    expect(seen.level).toBe('watch');
    expect(levelIn(seen, other.id)).toBe('control');
    // Asked again, the detail comes from the cache: still the watcher's own level.
    expect(((await client.get(`/api/sprinkler/${sprinkler.id}/`)).body as SprinklerDetail).level).toBe('watch');
    expect(((await admin.get(`/api/sprinkler/${sprinkler.id}/`)).body as SprinklerDetail).level).toBe('control');

    const refused = await client.post(`/api/sprinkler/${sprinkler.id}/program/`, buildProgram('Wheat'));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'watch_only' });

    const controlled = await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'control' });
    expect(controlled.status).toBe(200);
    // The cached detail follows the change at once (the grant's update raises the machine's revision).
    const after = (await client.get(`/api/sprinkler/${sprinkler.id}/`)).body as SprinklerDetail;
    expect(after.level).toBe('control');
    expect(levelIn(after, user.id)).toBe('control');
    const created = await client.post(`/api/sprinkler/${sprinkler.id}/program/`, buildProgram('Wheat'));
    expect(created.status).toBe(201);
    expect((created.body as SprinklerDetail).level).toBe('control');

    await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'watch' });
    const programId = (created.body as SprinklerDetail).programs[0]!.id;
    const deleted = await client.delete(`/api/sprinkler/${sprinkler.id}/program/${programId}/`);
    expect(deleted.status).toBe(403);
    expect(deleted.body).toMatchObject({ code: 'watch_only' });
  });

  it('keeps control for grants made without a level, as those before levels existed', async () => {
    const sprinkler = await buildSprinkler(t);
    const { user, client } = await t.signedInUser();
    await t.database.db.insert(sprinklerAccess).values({ sprinklerId: sprinkler.id, userId: user.id });
    expect(((await client.get(`/api/sprinkler/${sprinkler.id}/`)).body as SprinklerDetail).level).toBe('control');
  });

  it('answers a user with no grant 404, not 403: to them the machine does not exist', async () => {
    const sprinkler = await buildSprinkler(t);
    const { client } = await t.signedInUser();
    expect((await client.post(`/api/sprinkler/${sprinkler.id}/motion`, { motion: 'stop' })).status).toBe(404);
    expect((await client.post(`/api/sprinkler/${sprinkler.id}/program/1/send/`)).status).toBe(404);
  });

  it("shows each grant's level in the administrators' lists", async () => {
    const sprinkler = await buildSprinkler(t, { name: 'Levels listed' });
    const user = await t.buildUser({ lastName: 'Levels-listed' });
    await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'watch' });

    const machines = (await admin.get('/api/sprinkler/list/', { query: { search: 'Levels listed' } }))
      .body as SprinklerAdminListResponse;
    expect(machines.data[0]!.users).toEqual([expect.objectContaining({ id: user.id, level: 'watch' })]);
    const users = (await admin.get('/api/user/list/', { query: { search: 'Levels-listed' } })).body as UserListResponse;
    expect(users.data[0]!.sprinklers).toEqual([expect.objectContaining({ id: sprinkler.id, level: 'watch' })]);
  });

  it('records the level in the log entry of every grant, a change of level included', async () => {
    const sprinkler = await buildSprinkler(t, { name: 'Levels logged' });
    const user = await t.buildUser();
    await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'watch' });
    await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'control' });
    const log = (await admin.get('/api/logs/', { query: { pageSize: 100 } })).body as LogListResponse;
    const grants = log.data.filter(
      (entry) => entry.sprinklerName === 'Levels logged' && entry.eventType === 'sprinkler_access_granted',
    );
    expect(grants.map((entry) => [entry.event, entry.details])).toEqual([
      [user.email, 'control'],
      [user.email, 'watch'],
    ]);
  });

  it('refuses an unknown level', async () => {
    const sprinkler = await buildSprinkler(t);
    const user = await t.buildUser();
    const response = await permissions(sprinkler.id, { user: user.id, action: 'grant', level: 'admin' });
    expect(response.status).toBe(400);
  });
});
