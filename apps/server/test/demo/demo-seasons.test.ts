import { CropSeasonListSchema, SprinklerListResponseSchema, WaterBalanceSchema } from '@pivot/contracts';
import { DEMO_MACHINES, type Fleet } from '@pivot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../src/demo/demo-fleet';
import { DEMO_HISTORY_DAYS, DEMO_SEASONS, seedDemoWeather } from '../../src/demo/demo-seasons';
import { localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { type TestApp, createTestApp } from '../support/test-app';

const TIME_ZONE = 'Europe/Warsaw';
const DEMO_EMAIL = 'demo-seasons@pivot.test';
const DEMO_PASSWORD = 'Demo-Password-1';

describe('the demo fleet', () => {
  let t: TestApp;
  let fleet: Fleet;
  let demo: ApiClient;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    fleet = await startDemo(t.app, {
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
      dataDir: t.dataDir,
      print: () => undefined,
      timeZone: TIME_ZONE,
    });
    demo = t.client();
    await demo.login(DEMO_EMAIL, DEMO_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await fleet?.stop();
    await t?.close();
  });

  async function demoMachines(): Promise<{ id: number; internalId: string }[]> {
    const response = await demo.get('/api/sprinkler/');
    expect(response.status).toBe(200);
    return SprinklerListResponseSchema.parse(response.body);
  }

  it('comes with crop seasons in progress today, of different crops and soils', async () => {
    const machines = await demoMachines();
    expect(machines).toHaveLength(DEMO_MACHINES.length);
    const today = Date.parse(`${localDate(TIME_ZONE, Date.now())}T00:00:00Z`);
    const crops = new Set<string>();
    const soils = new Set<string>();
    for (const machine of machines) {
      const response = await demo.get(`/api/sprinkler/${machine.id}/crop-seasons/`);
      const seasons = CropSeasonListSchema.parse(response.body);
      expect(seasons.map((season) => season.polygon)).toEqual(
        expect.arrayContaining(DEMO_SEASONS[machine.internalId]!.map((season) => season.area)),
      );
      for (const season of seasons) {
        const [day, month, year] = season.emergence.split('.');
        const daysAgo = (today - Date.parse(`${year}-${month}-${day}T00:00:00Z`)) / 86_400_000;
        expect(daysAgo).toBeGreaterThan(30);
        expect(daysAgo).toBeLessThanOrEqual(DEMO_HISTORY_DAYS);
        crops.add(String(season.crop));
        soils.add(String(season.soil));
      }
    }
    expect(crops.size).toBeGreaterThanOrEqual(4);
    expect(soils.size).toBeGreaterThanOrEqual(4);
  });

  it("gives every machine a water balance from the station's weather since emergence at once", async () => {
    for (const machine of await demoMachines()) {
      const response = await demo.get(`/api/sprinkler/${machine.id}/water-balance/`);
      expect(response.status).toBe(200);
      const balance = WaterBalanceSchema.parse(response.body);
      expect(balance.reason).toBeNull();
      expect(balance.station).toMatch(/^WS-/);
      expect(balance.missingWeatherDays).toBe(0);
      expect(balance.zones.map((zone) => zone.name).sort()).toEqual(
        DEMO_SEASONS[machine.internalId]!.map((season) => season.area).sort(),
      );
      expect(balance.cells.length).toBeGreaterThan(500);
      for (const zone of balance.zones) {
        expect(zone.taw).toBeGreaterThan(0);
        expect(zone.et0).toBeGreaterThan(0);
      }
    }
  });

  it('tells the stations’ past once: a second start stores nothing more', async () => {
    expect(await seedDemoWeather(t.app, TIME_ZONE)).toBe(0);
  });
});
