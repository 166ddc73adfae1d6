import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dealerGrants } from '../../src/modules/access/access.table';
import type { DealerFleetFarm } from '@pivot/contracts';
import { saveMemory } from '../../src/modules/autopilot';
import type { ApiClient } from '../support/api-client';
import { buildProgram, buildSprinkler } from '../support/fixtures';
import { openStream } from '../support/open-stream';
import { useTestApp } from '../support/test-app';

/** A farm grants its dealer watch or control over its machines, all or some, until a time or revoked (docs/roles.md). */
describe('dealers', () => {
  const t = useTestApp({}, { signInAdmin: true });
  let address: string;
  beforeAll(async () => {
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  async function farmWithMachines(name: string, machines: number) {
    const farm = (await t.admin.post('/api/farm/', { name })).body as { id: number };
    const ids: number[] = [];
    for (let index = 0; index < machines; index += 1) {
      const machine = await buildSprinkler(t, { name: `${name} pivot ${index + 1}` });
      await t.admin.patch(`/api/sprinkler/${machine.id}/farm/`, { farmId: farm.id });
      ids.push(machine.id);
    }
    const owner = await t.signedInUser();
    await t.admin.post(`/api/farm/${farm.id}/members/`, { email: owner.user.email, role: 'owner' });
    return { farm, machines: ids, owner };
  }

  /** A dealer with one member signed in. */
  async function dealerWithTechnician(name: string) {
    const dealer = (await t.admin.post('/api/dealer/', { name })).body as { id: number };
    const technician = await t.signedInUser();
    expect((await t.admin.post(`/api/dealer/${dealer.id}/members/`, { email: technician.user.email })).status).toBe(
      204,
    );
    return { dealer, technician };
  }

  const levelOf = async (client: ApiClient, machineId: number) => {
    const answer = await client.get(`/api/sprinkler/${machineId}/`);
    return answer.status === 200 ? (answer.body as { level: string }).level : answer.status;
  };

  it("gives a dealer's members the machines each farm granted, at its level, side by side", async () => {
    const north = await farmWithMachines('North farm', 2);
    const south = await farmWithMachines('South farm', 2);
    const { dealer, technician } = await dealerWithTechnician('Agro Serwis');
    const refused = await t.admin.post('/api/dealer/', { name: 'Agro Serwis' });
    expect((refused.body as { code: string }).code).toBe('dealer_name_taken');

    const granted = await north.owner.client.put(`/api/farm/${north.farm.id}/dealers/${dealer.id}/`, {
      level: 'watch',
      machines: 'all',
    });
    expect(granted.body).toMatchObject({
      dealer: { name: 'Agro Serwis' },
      level: 'watch',
      machines: 'all',
      inForce: true,
    });
    const inAWeek = Date.now() + 7 * 86_400_000;
    await south.owner.client.put(`/api/farm/${south.farm.id}/dealers/${dealer.id}/`, {
      level: 'control',
      machines: [south.machines[0]],
      expiresAt: inAWeek,
    });

    expect(await levelOf(technician.client, north.machines[0]!)).toBe('watch');
    expect(await levelOf(technician.client, south.machines[0]!)).toBe('control');
    expect(await levelOf(technician.client, south.machines[1]!)).toBe(404);
    const move = await technician.client.post(`/api/sprinkler/${north.machines[0]}/motion`, { motion: 'stop' });
    expect((move.body as { code: string }).code).toBe('watch_only');
    // A dealer runs no farm: no renaming, no granting.
    expect((await technician.client.patch(`/api/sprinkler/${south.machines[0]}/`, { name: 'Mine' })).status).toBe(403);
    expect((await technician.client.get(`/api/farm/${south.farm.id}/`)).status).toBe(404);

    const fleet = (await technician.client.get('/api/dealer/fleet/')).body;
    expect(fleet).toEqual([
      {
        farm: { id: north.farm.id, name: 'North farm' },
        dealerName: 'Agro Serwis',
        level: 'watch',
        expiresAt: null,
        machines: { total: 2, online: 0, moving: 0, inAlarm: 0 },
        openIncidents: 0,
        nextIrrigation: null,
      },
      {
        farm: { id: south.farm.id, name: 'South farm' },
        dealerName: 'Agro Serwis',
        level: 'control',
        expiresAt: inAWeek,
        machines: { total: 1, online: 0, moving: 0, inAlarm: 0 },
        openIncidents: 0,
        nextIrrigation: null,
      },
    ]);
    const page = (await technician.client.get('/api/sprinkler/page/')).body as { count: number };
    expect(page.count).toBe(3);
    // What the dealer's member does is in the farm's log with the dealer's name; the owner's without.
    expect(
      (await technician.client.post(`/api/sprinkler/${south.machines[0]}/program/`, buildProgram('By the dealer')))
        .status,
    ).toBe(201);
    expect(
      (await south.owner.client.post(`/api/sprinkler/${south.machines[0]}/program/`, buildProgram('By the owner')))
        .status,
    ).toBe(201);
    type Entry = { eventType: string; event: string; dealerName: string | null };
    const log = (
      (await south.owner.client.get('/api/logs/', { query: { farm: south.farm.id } })).body as { data: Entry[] }
    ).data;
    expect(
      log.filter((entry) => entry.eventType === 'program_added').map((entry) => [entry.event, entry.dealerName]),
    ).toEqual([
      ['By the owner', null],
      ['By the dealer', 'Agro Serwis'],
    ]);
    // Switched to one of the farms granted, the table shows what that farm granted.
    const southOnly = await technician.client.get('/api/sprinkler/page/', { query: { farm: south.farm.id } });
    expect((southOnly.body as { data: { id: number }[] }).data.map((machine) => machine.id)).toEqual([
      south.machines[0],
    ]);
  });

  it('lets only those who run the farm grant, and only its own machines', async () => {
    const farm = await farmWithMachines('Careful farm', 1);
    const other = await farmWithMachines('Other farm', 1);
    const { dealer } = await dealerWithTechnician('Careful dealer');
    const member = await t.signedInUser();
    await t.admin.post(`/api/farm/${farm.farm.id}/members/`, { email: member.user.email, role: 'member' });
    const grant = (client: ApiClient, machines: 'all' | number[]) =>
      client.put(`/api/farm/${farm.farm.id}/dealers/${dealer.id}/`, { level: 'control', machines });
    expect((await grant(member.client, 'all')).status).toBe(403);
    expect((await grant(other.owner.client, 'all')).status).toBe(404);
    const foreign = await grant(farm.owner.client, [other.machines[0]!]);
    expect([foreign.status, (foreign.body as { code: string }).code]).toEqual([404, 'sprinkler_not_found']);
    expect((await farm.owner.client.get(`/api/farm/${farm.farm.id}/dealers/`)).body).toEqual([]);
  });

  it("ends the dealer's access at once when the farm revokes it, their open page's stream too, and when it expires", async () => {
    const farm = await farmWithMachines('Farm that revokes', 1);
    const { dealer, technician } = await dealerWithTechnician('Revoked dealer');
    const url = `/api/farm/${farm.farm.id}/dealers/${dealer.id}/`;
    await farm.owner.client.put(url, { level: 'control', machines: 'all' });
    const stream = await openStream(address, technician.client, `/api/sprinkler/${farm.machines[0]}/events`);
    try {
      expect((await farm.owner.client.delete(url)).status).toBe(204);
      expect(await stream.ends(1500)).toBeLessThan(1500);
    } finally {
      stream.close();
    }
    expect(await levelOf(technician.client, farm.machines[0]!)).toBe(404);
    expect((await farm.owner.client.delete(url)).status).toBe(404);

    // Granted again, then past its time: no access, the grant listed as no longer in force.
    await farm.owner.client.put(url, { level: 'watch', machines: 'all', expiresAt: Date.now() + 60_000 });
    expect(await levelOf(technician.client, farm.machines[0]!)).toBe('watch');
    await t.database.db
      .update(dealerGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dealerGrants.dealerId, dealer.id));
    expect(await levelOf(technician.client, farm.machines[0]!)).toBe(404);
    expect((await farm.owner.client.get(`/api/farm/${farm.farm.id}/dealers/`)).body).toMatchObject([
      { dealer: { name: 'Revoked dealer' }, inForce: false },
    ]);
    expect((await technician.client.get('/api/dealer/fleet/')).body).toEqual([]);

    type Entry = { eventType: string; event: string; details: string };
    const log = (
      (await farm.owner.client.get('/api/logs/', { query: { farm: farm.farm.id } })).body as { data: Entry[] }
    ).data;
    expect(log.slice(0, 3).map((entry) => [entry.eventType, entry.event, entry.details])).toEqual([
      ['farm_dealer_granted', 'Revoked dealer', 'watch'],
      ['farm_dealer_revoked', 'Revoked dealer', ''],
      ['farm_dealer_granted', 'Revoked dealer', 'control'],
    ]);
  });

  it("gives each farm's open incidents and soonest planned start, of the machines granted only", async () => {
    const farm = await farmWithMachines('Busy farm', 3);
    const { dealer, technician } = await dealerWithTechnician('Busy dealer');
    const [alarmed, planned, excluded] = farm.machines as [number, number, number];
    await farm.owner.client.put(`/api/farm/${farm.farm.id}/dealers/${dealer.id}/`, {
      level: 'watch',
      machines: [alarmed, planned],
    });
    const machine = async (id: number) => {
      const { name, internalId } = (await t.admin.get(`/api/sprinkler/${id}/`)).body as {
        name: string;
        internalId: string;
      };
      return { id, name, internalId };
    };
    const now = Date.now();
    await t.app.incidentDesk.begin(await machine(alarmed), 'alarm', 'E12', now);
    await t.app.incidentDesk.begin(await machine(alarmed), 'low_pressure', '0.4', now);
    await t.app.incidentDesk.begin(await machine(excluded), 'alarm', 'E7', now);
    // The autopilot in auto put a start off: the soonest of the machines granted counts, not the
    // sooner one of a machine the grant leaves out, nor one in suggest, nor one gone by.
    const plan = async (id: number, mode: 'auto' | 'suggest', plannedStartAt: number) => {
      expect((await t.admin.put(`/api/sprinkler/${id}/autopilot/`, { mode, rules: {} })).status).toBe(200);
      await saveMemory(t.database.db, id, { plannedStartAt });
    };
    await plan(planned, 'auto', now + 3 * 3_600_000);
    await plan(excluded, 'auto', now + 3_600_000);
    await plan(alarmed, 'suggest', now + 2 * 3_600_000);
    const fleet = (await technician.client.get('/api/dealer/fleet/')).body as DealerFleetFarm[];
    const plannedName = (await machine(planned)).name;
    expect(fleet).toMatchObject([
      {
        farm: { id: farm.farm.id },
        machines: { total: 2 },
        openIncidents: 2,
        nextIrrigation: { machine: { id: planned, name: plannedName }, at: now + 3 * 3_600_000 },
      },
    ]);
    await plan(planned, 'auto', now - 60_000);
    const later = (await technician.client.get('/api/dealer/fleet/')).body as DealerFleetFarm[];
    expect(later[0]!.nextIrrigation).toBeNull();
  });

  it("lets the administrators list a dealer's members and remove one, whose access and open streams end", async () => {
    const farm = await farmWithMachines('Farm of a removed technician', 1);
    const { dealer, technician } = await dealerWithTechnician('Shrinking dealer');
    const colleague = await t.signedInUser();
    await t.admin.post(`/api/dealer/${dealer.id}/members/`, { email: colleague.user.email });
    await farm.owner.client.put(`/api/farm/${farm.farm.id}/dealers/${dealer.id}/`, { level: 'watch', machines: 'all' });
    const membersUrl = `/api/dealer/${dealer.id}/members/`;
    expect((await t.admin.get(membersUrl)).body).toEqual(
      [technician.user, colleague.user].map((person) => ({
        id: person.id,
        first_name: person.firstName,
        last_name: person.lastName,
        email: person.email,
      })),
    );
    // Nobody but the server's administrators: not the farm's owner, not a dealer's member.
    for (const client of [farm.owner.client, technician.client]) {
      expect((await client.get(membersUrl)).status).toBe(403);
      expect((await client.delete(`${membersUrl}${colleague.user.id}/`)).status).toBe(403);
    }
    expect((await t.admin.get(`/api/dealer/999999/members/`)).status).toBe(404);

    const stream = await openStream(address, technician.client, `/api/sprinkler/${farm.machines[0]}/events`);
    try {
      expect((await t.admin.delete(`${membersUrl}${technician.user.id}/`)).status).toBe(204);
      expect(await stream.ends(1500)).toBeLessThan(1500);
    } finally {
      stream.close();
    }
    expect((await technician.client.get('/api/dealer/fleet/')).body).toEqual([]);
    expect(await levelOf(technician.client, farm.machines[0]!)).toBe(404);
    expect(await levelOf(colleague.client, farm.machines[0]!)).toBe('watch');
    expect(((await t.admin.get(membersUrl)).body as { id: number }[]).map((member) => member.id)).toEqual([
      colleague.user.id,
    ]);
    const again = await t.admin.delete(`${membersUrl}${technician.user.id}/`);
    expect([again.status, (again.body as { code: string }).code]).toEqual([404, 'user_not_found']);

    type Entry = { eventType: string; event: string; details: string };
    const log = ((await t.admin.get('/api/logs/')).body as { data: Entry[] }).data;
    const entries = log
      .filter((entry) => entry.eventType.startsWith('dealer_member_') && entry.details === 'Shrinking dealer')
      .map((entry) => [entry.eventType, entry.event]);
    expect(entries).toEqual([
      ['dealer_member_removed', technician.user.email],
      ['dealer_member_added', colleague.user.email],
      ['dealer_member_added', technician.user.email],
    ]);
  });

  it("adds and removes a dealer's member once when the administrator's click is sent twice at once", async () => {
    const { dealer } = await dealerWithTechnician('Double-clicked dealer');
    const person = await t.signedInUser();
    const membersUrl = `/api/dealer/${dealer.id}/members/`;
    const added = await Promise.all([1, 2].map(() => t.admin.post(membersUrl, { email: person.user.email })));
    expect(added.map((answer) => answer.status)).toEqual([204, 204]);
    const removed = await Promise.all([1, 2].map(() => t.admin.delete(`${membersUrl}${person.user.id}/`)));
    expect(removed.map((answer) => answer.status).sort()).toEqual([204, 404]);

    type Entry = { eventType: string; event: string; details: string };
    const log = ((await t.admin.get('/api/logs/')).body as { data: Entry[] }).data;
    const entries = log
      .filter((entry) => entry.details === 'Double-clicked dealer' && entry.event === person.user.email)
      .map((entry) => entry.eventType);
    expect(entries).toEqual(['dealer_member_removed', 'dealer_member_added']);
  });
});
