import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler } from '../support/fixtures';
import { openStream } from '../support/open-stream';
import { useTestApp } from '../support/test-app';

type FarmDetail = {
  farm: { id: number; name: string; role: string | null; machineCount: number; memberCount: number };
  members: { id: number; email: string; role: string; grants: { sprinklerId: number; level: string }[] }[];
  machines: { id: number; name: string }[];
};

/** A farm's owners and managers run its people and machines; its members use what they are granted (docs/roles.md). */
describe('farms', () => {
  const t = useTestApp({}, { signInAdmin: true });
  let admin: ApiClient;
  let address: string;
  beforeAll(async () => {
    admin = t.admin;
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** A new farm with one machine and an owner, all through the API as the administrator would. */
  async function farmWithOwner(name: string) {
    const created = await admin.post('/api/farm/', { name });
    expect(created.status).toBe(201);
    const farm = created.body as { id: number };
    const machine = await buildSprinkler(t);
    expect((await admin.patch(`/api/sprinkler/${machine.id}/farm/`, { farmId: farm.id })).status).toBe(200);
    const owner = await t.signedInUser();
    const added = await admin.post(`/api/farm/${farm.id}/members/`, { email: owner.user.email, role: 'owner' });
    expect(added.status).toBe(201);
    return { farm, machine, owner };
  }

  /** A person made a member of the farm by the administrator, in a role. */
  async function member(farmId: number, role: 'manager' | 'member') {
    const person = await t.signedInUser();
    expect((await admin.post(`/api/farm/${farmId}/members/`, { email: person.user.email, role })).status).toBe(201);
    return person;
  }

  it("names each machine's farm in the administrators' list of machines, none for one placed in no farm", async () => {
    const { farm, machine } = await farmWithOwner('Farm in the admin list');
    const loose = await buildSprinkler(t, { name: 'Pivot in no farm' });
    type Row = { sprinkler: { id: number }; farm: { id: number; name: string } | null };
    const listed = async (search: string) =>
      ((await admin.get('/api/sprinkler/list/', { query: { search } })).body as { data: Row[] }).data;
    expect((await listed(machine.internalId)).map((row) => row.farm)).toEqual([
      { id: farm.id, name: 'Farm in the admin list' },
    ]);
    expect((await listed(loose.internalId)).map((row) => [row.sprinkler.id, row.farm])).toEqual([[loose.id, null]]);
  });

  it('refuses a second farm of one name, and an unknown or repeated member, saying why', async () => {
    const { farm, owner } = await farmWithOwner('Gospodarstwo Zielone');
    const again = await admin.post(
      '/api/farm/',
      { name: 'Gospodarstwo Zielone' },
      { headers: { 'accept-language': 'pl' } },
    );
    expect(again.body).toEqual({ code: 'farm_name_taken', message: 'Gospodarstwo o tej nazwie już istnieje' });
    const unknown = await admin.post(`/api/farm/${farm.id}/members/`, { email: 'nobody@farm.pl', role: 'member' });
    expect([unknown.status, (unknown.body as { code: string }).code]).toEqual([404, 'user_not_found']);
    const twice = await admin.post(
      `/api/farm/${farm.id}/members/`,
      { email: owner.user.email, role: 'member' },
      { headers: { 'accept-language': 'en' } },
    );
    expect(twice.body).toEqual({
      code: 'farm_member_exists',
      message: 'This person is a member of the farm already: change their role instead',
    });
  });

  it("gives the owner control of the farm's machines, to rename them and grant them to members only", async () => {
    const { farm, machine, owner } = await farmWithOwner('Farm of Nowak');
    const farms = (await owner.client.get('/api/farm/')).body;
    expect(farms).toEqual([
      {
        id: farm.id,
        name: 'Farm of Nowak',
        role: 'owner',
        requireSecondFactor: false,
        machineCount: 1,
        memberCount: 1,
      },
    ]);
    const detail = (await owner.client.get(`/api/sprinkler/${machine.id}/`)).body as { level: string };
    expect(detail.level).toBe('control');
    const renamed = await owner.client.patch(`/api/sprinkler/${machine.id}/`, { name: 'Pivot by the barn' });
    expect([renamed.status, (renamed.body as { name: string }).name]).toEqual([200, 'Pivot by the barn']);

    // Someone outside the farm is nobody to its owner: 404, nothing granted.
    const outsider = await t.buildUser();
    const refused = await owner.client.patch(`/api/sprinkler/${machine.id}/permissions/`, {
      user: outsider.id,
      action: 'grant',
      level: 'watch',
    });
    expect(refused.status).toBe(404);
    expect((await admin.get(`/api/sprinkler/${machine.id}/`)).body).toMatchObject({ users: [] });

    const worker = await member(farm.id, 'member');
    expect((await worker.client.get(`/api/sprinkler/${machine.id}/`)).status).toBe(404);
    const granted = await owner.client.patch(`/api/sprinkler/${machine.id}/permissions/`, {
      user: worker.user.id,
      action: 'grant',
      level: 'watch',
    });
    expect(granted.status).toBe(200);
    expect((await worker.client.get(`/api/sprinkler/${machine.id}/`)).body).toMatchObject({ level: 'watch' });
    // A member runs nothing: no renaming, no granting, no farm's page.
    expect((await worker.client.patch(`/api/sprinkler/${machine.id}/`, { name: 'Mine' })).status).toBe(403);
    expect((await worker.client.get(`/api/farm/${farm.id}/`)).status).toBe(403);
    const members = ((await owner.client.get(`/api/farm/${farm.id}/`)).body as FarmDetail).members;
    expect(members.map((person) => [person.email, person.role, person.grants])).toEqual([
      [owner.user.email, 'owner', []],
      [worker.user.email, 'member', [{ sprinklerId: machine.id, level: 'watch' }]],
    ]);
  });

  it('lets a manager change members and managers, never owners, and keeps one owner always', async () => {
    const { farm, owner } = await farmWithOwner('Farm of Mazur');
    const manager = await member(farm.id, 'manager');
    const worker = await member(farm.id, 'member');
    const roleOf = async (client: ApiClient, userId: number, role: string) =>
      client.patch(`/api/farm/${farm.id}/members/${userId}/`, { role });

    expect((await roleOf(manager.client, worker.user.id, 'manager')).status).toBe(200);
    expect((await roleOf(manager.client, worker.user.id, 'member')).status).toBe(200);
    expect((await roleOf(manager.client, worker.user.id, 'owner')).status).toBe(403);
    expect((await roleOf(manager.client, owner.user.id, 'member')).status).toBe(403);
    expect((await manager.client.delete(`/api/farm/${farm.id}/members/${owner.user.id}/`)).status).toBe(403);
    expect((await worker.client.patch(`/api/farm/${farm.id}/`, { name: 'Taken over' })).status).toBe(403);

    const alone = await roleOf(owner.client, owner.user.id, 'manager');
    expect([alone.status, (alone.body as { code: string }).code]).toEqual([409, 'last_owner']);
    const leaving = await owner.client.delete(`/api/farm/${farm.id}/members/${owner.user.id}/`);
    expect(leaving.status).toBe(409);
    expect((await roleOf(owner.client, manager.user.id, 'owner')).status).toBe(200);
    // With a second owner the first may step down.
    const down = await roleOf(owner.client, owner.user.id, 'member');
    expect(down.body).toMatchObject({ id: owner.user.id, role: 'member' });
    expect((await owner.client.get(`/api/farm/${farm.id}/`)).status).toBe(403);
    const roles = ((await admin.get(`/api/farm/${farm.id}/`)).body as FarmDetail).members.map((person) => person.role);
    expect(roles).toEqual(['member', 'owner', 'member']);
  });

  it('keeps an owner when two owners step down at once, and makes one farm of a name asked for twice at once', async () => {
    const { farm, owner } = await farmWithOwner('Farm of Lewandowski');
    const second = await member(farm.id, 'manager');
    await owner.client.patch(`/api/farm/${farm.id}/members/${second.user.id}/`, { role: 'owner' });
    const both = await Promise.all(
      [owner, second].map((person) =>
        person.client.patch(`/api/farm/${farm.id}/members/${person.user.id}/`, { role: 'member' }),
      ),
    );
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const roles = ((await admin.get(`/api/farm/${farm.id}/`)).body as FarmDetail).members.map((person) => person.role);
    expect(roles.sort()).toEqual(['member', 'owner']);

    const twice = await Promise.all([1, 2].map(() => admin.post('/api/farm/', { name: 'Clicked twice' })));
    expect(twice.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const named = ((await admin.get('/api/farm/')).body as { name: string }[]).filter(
      (listed) => listed.name === 'Clicked twice',
    );
    expect(named).toHaveLength(1);
  });

  it("ends a removed member's grants and their open stream of the machine at once", async () => {
    const { farm, machine, owner } = await farmWithOwner('Farm of Kowalski');
    const worker = await member(farm.id, 'member');
    await owner.client.patch(`/api/sprinkler/${machine.id}/permissions/`, { user: worker.user.id, action: 'grant' });
    const stream = await openStream(address, worker.client, `/api/sprinkler/${machine.id}/events`);
    try {
      expect((await owner.client.delete(`/api/farm/${farm.id}/members/${worker.user.id}/`)).status).toBe(204);
      expect(await stream.ends(1500)).toBeLessThan(1500);
    } finally {
      stream.close();
    }
    expect((await worker.client.get(`/api/sprinkler/${machine.id}/`)).status).toBe(404);
    expect((await worker.client.get('/api/farm/')).body).toEqual([]);
    expect((await admin.get(`/api/sprinkler/${machine.id}/`)).body).toMatchObject({ users: [] });
  });

  it("writes each change in the farm's log, which its managers read and its members do not", async () => {
    const { farm, owner } = await farmWithOwner('Farm of Wiśniewski');
    const manager = await member(farm.id, 'manager');
    const worker = await member(farm.id, 'member');
    await owner.client.patch(`/api/farm/${farm.id}/`, { name: 'Farm of Wiśniewska' });
    await manager.client.patch(`/api/farm/${farm.id}/members/${worker.user.id}/`, { role: 'manager' });
    type Entry = { eventType: string; event: string; details: string; farmName: string | null };
    const log = ((await manager.client.get('/api/logs/')).body as { data: Entry[] }).data;
    expect(log.map((entry) => [entry.eventType, entry.farmName, entry.details])).toEqual([
      ['farm_member_role_changed', 'Farm of Wiśniewska', 'manager'],
      ['farm_renamed', 'Farm of Wiśniewska', ''],
      ['farm_member_added', 'Farm of Wiśniewski', 'member'],
      ['farm_member_added', 'Farm of Wiśniewski', 'manager'],
      ['farm_member_added', 'Farm of Wiśniewski', 'owner'],
      ['sprinkler_farm_changed', 'Farm of Wiśniewski', ''],
      ['farm_created', 'Farm of Wiśniewski', ''],
    ]);
    // A member reads only their own entries.
    const other = await member(farm.id, 'member');
    const own = ((await other.client.get('/api/logs/')).body as { data: Entry[] }).data;
    expect(own.map((entry) => [entry.eventType, entry.event])).toEqual([['farm_member_added', other.user.email]]);
  });

  it('lists one farm at a time when asked: the machines table and the log follow the farm switched to', async () => {
    const one = await farmWithOwner('Farm switched to first');
    const other = await farmWithOwner('Farm switched to second');
    const person = await member(one.farm.id, 'member');
    await one.owner.client.patch(`/api/sprinkler/${one.machine.id}/permissions/`, {
      user: person.user.id,
      action: 'grant',
      level: 'watch',
    });
    expect(
      (await admin.post(`/api/farm/${other.farm.id}/members/`, { email: person.user.email, role: 'manager' })).status,
    ).toBe(201);
    const machinesOf = async (client: ApiClient, farm?: number) => {
      const page = await client.get('/api/sprinkler/page/', { query: farm === undefined ? {} : { farm } });
      const { count, data } = page.body as { count: number; data: { id: number }[] };
      return { status: page.status, count, ids: data.map((machine) => machine.id).sort((a, b) => a - b) };
    };
    expect(await machinesOf(person.client, one.farm.id)).toEqual({ status: 200, count: 1, ids: [one.machine.id] });
    expect(await machinesOf(person.client, other.farm.id)).toEqual({ status: 200, count: 1, ids: [other.machine.id] });
    expect((await machinesOf(person.client)).ids).toEqual([one.machine.id, other.machine.id]);
    // Side by side, each machine names its farm, and the farms' names sort the table.
    expect((await person.client.get('/api/farm/switchable/')).body).toEqual([
      { id: one.farm.id, name: 'Farm switched to first' },
      { id: other.farm.id, name: 'Farm switched to second' },
    ]);
    for (const [order, farms] of [
      ['asc', [one.farm.id, other.farm.id]],
      ['desc', [other.farm.id, one.farm.id]],
    ] as const) {
      const page = await person.client.get('/api/sprinkler/page/', { query: { sort: 'farm', order } });
      const rows = (page.body as { data: { id: number; farmId: number | null }[] }).data;
      expect(rows.map((row) => row.farmId)).toEqual(farms);
    }
    // A farm the person is no member of is no farm to them.
    const stranger = await farmWithOwner('Farm not switched to');
    const refused = await person.client.get('/api/sprinkler/page/', { query: { farm: stranger.farm.id } });
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([404, 'farm_not_found']);
    expect((await machinesOf(admin, stranger.farm.id)).ids).toEqual([stranger.machine.id]);
    const everyFarm = (await admin.get('/api/farm/switchable/')).body as { id: number }[];
    expect(everyFarm.map((farm) => farm.id)).toEqual(expect.arrayContaining([one.farm.id, stranger.farm.id]));
    expect(((await person.client.get('/api/farm/switchable/')).body as { id: number }[]).length).toBe(2);

    type Entry = { eventType: string; farmName: string | null; sprinklerName: string | null };
    const logOf = async (farm: number) =>
      ((await person.client.get('/api/logs/', { query: { farm } })).body as { data: Entry[] }).data;
    expect(new Set((await logOf(other.farm.id)).map((entry) => entry.farmName))).toEqual(
      new Set(['Farm switched to second']),
    );
    // A member reads what concerns them and the machines they may use, their history included.
    expect((await logOf(one.farm.id)).map((entry) => entry.eventType)).toEqual([
      'sprinkler_access_granted',
      'farm_member_added',
      'sprinkler_farm_changed',
    ]);
    expect((await person.client.get('/api/logs/', { query: { farm: stranger.farm.id } })).status).toBe(404);
  });

  it('places a machine added while the server has one farm in that farm', async () => {
    // Several farms exist by now: a machine added without a farm is the administrators' alone.
    const farms = (await admin.get('/api/farm/')).body as { id: number }[];
    expect(farms.length).toBeGreaterThan(1);
    expect(await t.app.access.onlyFarm(t.database.db)).toBeNull();
  });
});
