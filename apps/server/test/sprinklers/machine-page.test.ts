import { SprinklerPageSchema, type SprinklerStatus, sprinklersEndpoints } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

const PAGE_PATH = `/api${sprinklersEndpoints.page.path}`;

/**
 * The fleet of the file: its names sort as written here, case aside; `online` false is a machine
 * that was heard but is offline now, no state one never heard.
 */
const FLEET: { name: string; state?: { online: boolean; status: SprinklerStatus; distance: number | null } }[] = [
  { name: 'alfa Pivot', state: { online: true, status: 'front', distance: 100 } },
  { name: 'Bravo', state: { online: true, status: 'stop', distance: 300 } },
  { name: 'charlie', state: { online: false, status: 'front', distance: 200 } },
  { name: 'Delta' },
  { name: 'Echo', state: { online: true, status: 'alarm', distance: 50 } },
  { name: 'Foxtrot', state: { online: true, status: 'back', distance: null } },
];

describe('a page of the machines list', () => {
  let t: TestApp;
  let admin: ApiClient;
  let farmer: ApiClient;
  let idsOf: Map<string, number>;
  let internalIdOf: Map<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    idsOf = new Map();
    internalIdOf = new Map();
    for (const { name, state } of FLEET) {
      const machine = await buildSprinkler(t, { name });
      idsOf.set(name, machine.id);
      internalIdOf.set(name, machine.internalId);
      if (state) {
        await t.database.db
          .insert(machineState)
          .values({ machineId: machine.internalId, reportedAt: new Date(), presenceAt: new Date(), ...state });
      }
    }
    const signedIn = await t.signedInUser();
    farmer = signedIn.client;
    for (const name of ['Bravo', 'charlie']) await grant(t, idsOf.get(name)!, signedIn.user.id, 'watch');
  });
  afterAll(() => t.close());

  /** The page the client gets, its machines by name, in the language given. */
  async function pageOf(client: ApiClient, query: Record<string, string | number> = {}, language = 'en') {
    const response = await client.get(PAGE_PATH, { query, headers: { 'accept-language': language } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = SprinklerPageSchema.parse(response.body);
    return { ...page, names: page.data.map((machine) => machine.name) };
  }

  it('pages the machines by name, case aside, with the count of all and which page it is', async () => {
    const first = await pageOf(admin, { pageSize: 2 });
    expect(first).toMatchObject({ count: 6, page: 1, pageSize: 2, names: ['alfa Pivot', 'Bravo'] });
    expect((await pageOf(admin, { pageSize: 2, page: 2 })).names).toEqual(['charlie', 'Delta']);
    expect((await pageOf(admin, { pageSize: 4, page: 2 })).names).toEqual(['Echo', 'Foxtrot']);
    const past = await pageOf(admin, { pageSize: 4, page: 3 });
    expect(past).toMatchObject({ count: 6, page: 3, names: [] });
    expect((await pageOf(admin, { order: 'desc', pageSize: 3 })).names).toEqual(['Foxtrot', 'Echo', 'Delta']);
  });

  it('answers each machine in its list form with its live values', async () => {
    const { data } = await pageOf(admin, { search: 'alfa' });
    expect(data).toEqual([
      expect.objectContaining({
        id: idsOf.get('alfa Pivot'),
        internalId: internalIdOf.get('alfa Pivot'),
        status: 'front',
        distance: 100,
        online: true,
        lat: 52.2,
        lng: 17.1,
      }),
    ]);
    const [never] = (await pageOf(admin, { search: 'Delta' })).data;
    expect(never).toMatchObject({ online: false, status: null, distance: null, reportedAt: null });
  });

  it('sorts by a live value, the machines without one last either way', async () => {
    expect((await pageOf(admin, { sort: 'distance' })).names).toEqual([
      'Echo',
      'alfa Pivot',
      'charlie',
      'Bravo',
      'Delta',
      'Foxtrot',
    ]);
    expect((await pageOf(admin, { sort: 'distance', order: 'desc' })).names).toEqual([
      'Bravo',
      'charlie',
      'alfa Pivot',
      'Echo',
      // Without a value, by id as they were added.
      'Delta',
      'Foxtrot',
    ]);
  });

  it('finds machines by name and by broker ID, counting what it found', async () => {
    expect(await pageOf(admin, { search: 'PIVOT' })).toMatchObject({ count: 1, names: ['alfa Pivot'] });
    const internalId = internalIdOf.get('Echo')!;
    expect(await pageOf(admin, { search: internalId })).toMatchObject({ count: 1, names: ['Echo'] });
    // The search's own wildcards are letters like any other.
    expect(await pageOf(admin, { search: '%' })).toMatchObject({ count: 0, names: [] });
  });

  it('finds machines by the status words the table shows, in the language of the page', async () => {
    // Online and moving forward, and offline having been.
    expect((await pageOf(admin, { search: 'forward' }, 'en')).names).toEqual(['alfa Pivot', 'charlie']);
    expect((await pageOf(admin, { search: 'do przodu' }, 'pl')).names).toEqual(['alfa Pivot', 'charlie']);
    expect((await pageOf(admin, { search: 'jechała' }, 'pl')).names).toEqual(['charlie']);
    // Offline: the one heard before and the one never heard.
    expect(await pageOf(admin, { search: 'offline' }, 'en')).toMatchObject({ count: 2, names: ['charlie', 'Delta'] });
    expect((await pageOf(admin, { search: 'BEZ ŁĄCZNOŚCI' }, 'pl')).names).toEqual(['charlie', 'Delta']);
    expect((await pageOf(admin, { search: 'stopped' }, 'en')).names).toEqual(['Bravo']);
    expect((await pageOf(admin, { search: 'zatrzymana' }, 'pl')).names).toEqual(['Bravo']);
    // One language's words are not the other's.
    expect((await pageOf(admin, { search: 'zatrzymana' }, 'en')).names).toEqual([]);
    expect((await pageOf(admin, { search: 'reverse' }, 'pl')).names).toEqual([]);
  });

  it('filters by state: online and doing it, or offline', async () => {
    expect(await pageOf(admin, { status: 'offline' })).toMatchObject({ count: 2, names: ['charlie', 'Delta'] });
    expect(await pageOf(admin, { status: 'front' })).toMatchObject({ count: 1, names: ['alfa Pivot'] });
    expect((await pageOf(admin, { status: 'alarm' })).names).toEqual(['Echo']);
    expect((await pageOf(admin, { status: 'offline', search: 'char' })).names).toEqual(['charlie']);
  });

  it("shows a user only the machines granted, and counts them by the user's grants", async () => {
    expect(await pageOf(farmer)).toMatchObject({ count: 2, names: ['Bravo', 'charlie'] });
    expect(await pageOf(farmer, { search: 'alfa' })).toMatchObject({ count: 0, names: [] });
    expect(await pageOf(farmer, { search: 'forward' })).toMatchObject({ count: 1, names: ['charlie'] });
    expect(await pageOf(farmer, { status: 'offline' })).toMatchObject({ count: 1, names: ['charlie'] });
    for (const sort of ['name', 'distance', 'status', 'uploaded'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const page = await pageOf(farmer, { sort, order, pageSize: 100 });
        expect(page.data.map((machine) => machine.id).sort()).toEqual(
          [idsOf.get('Bravo'), idsOf.get('charlie')].sort(),
        );
      }
    }
  });

  it('refuses a page size beyond its bound and a column it does not sort by', async () => {
    expect((await admin.get(PAGE_PATH, { query: { pageSize: 101 } })).status).toBe(400);
    expect((await admin.get(PAGE_PATH, { query: { sort: 'revision' } })).status).toBe(400);
    expect((await admin.get(PAGE_PATH, { query: { status: 'moving' } })).status).toBe(400);
  });

  it('sorts names and broker IDs as people read them: a number by its value', async () => {
    // Last: these machines join the fleet the other tests count.
    for (const name of ['Field 10', 'field 9', 'Field 100'])
      await buildSprinkler(t, { name, internalId: `N-${name.replace(' ', '-')}` });
    expect((await pageOf(admin, { search: 'field' })).names).toEqual(['field 9', 'Field 10', 'Field 100']);
    const byId = await pageOf(admin, { search: 'field', sort: 'internalId', order: 'desc' });
    expect(byId.data.map((machine) => machine.internalId)).toEqual(['N-Field-100', 'N-Field-10', 'N-field-9']);
  });
  it('sorts Polish names as a Polish reader does: Ł after every L, before M; accents aside elsewhere', async () => {
    // Last too: these machines join the fleet the other tests count.
    const names = ['Łąka północna', 'Lzy', 'Laka', 'Mokradła', 'Łąka Zachodnia', 'Élan', 'Ela'];
    for (const [index, name] of names.entries())
      await buildSprinkler(t, { name, internalId: `PL-${index}-${Date.now()}` });
    const listed = (await pageOf(admin, { pageSize: 100 })).names.filter((name) => names.includes(name));
    expect(listed).toEqual(['Ela', 'Élan', 'Laka', 'Lzy', 'Łąka północna', 'Łąka Zachodnia', 'Mokradła']);
    // The browser's Polish collator, which the table's reader knows, gives the same order.
    expect(listed).toEqual([...names].sort(new Intl.Collator('pl').compare));
  });
});
