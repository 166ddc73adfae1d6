import {
  ApplicationDepthSchema,
  CropSeasonListSchema,
  ProgramFromAdviceSchema,
  SprinklerListResponseSchema,
  WaterBalanceSchema,
  WatermapResponseSchema,
} from '@pivot/contracts';
import { DEMO_MACHINES, type Fleet, simulateDemoHistory } from '@pivot/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemo } from '../../src/demo/demo-fleet';
import { demoSeasonsOf, seedDemoReports, seedDemoSoil, seedDemoWeather } from '../../src/demo/demo-seasons';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { type TestApp, createTestApp } from '../support/test-app';

const TIME_ZONE = 'Europe/Warsaw';

/**
 * The demo's seasons the water balance and the advice's program run: those stored today (the crops
 * in the field) that were in it on the last complete day, the day they are of. A crop that emerges
 * today (the soybean of PIVOT-02 on 5 December) has no day in yesterday's balance yet.
 */
function seasonsOfBalance(machineId: string) {
  const today = localDate(TIME_ZONE, Date.now());
  const yesterday = new Set(demoSeasonsOf(machineId, addDays(today, -1)).map((season) => season.name));
  return demoSeasonsOf(machineId, today).filter((season) => yesterday.has(season.name));
}
const DEMO_EMAIL = 'demo-seasons@pivot.test';
const DEMO_PASSWORD = 'Demo-Password-1';
const DAY_MS = 86_400_000;

describe('the demo seasons', () => {
  it.each([
    [
      '2026-11-28',
      { 'PIVOT-01': ['Kukurydza 25.10.2026'], 'PIVOT-02': [], 'PIVOT-05': ['Kukurydza na ziarno 01.10.2026'] },
    ],
    ['2026-07-10', { 'PIVOT-01': [], 'PIVOT-02': ['Pszenica 15.06.2026'], 'PIVOT-05': [] }],
    [
      '2027-02-15',
      {
        'PIVOT-01': ['Kukurydza 25.10.2026'],
        'PIVOT-02': ['Soja 05.12.2026'],
        'PIVOT-05': ['Kukurydza na ziarno 01.10.2026'],
      },
    ],
  ])('on %s are the crops in the southern field then, emerged on the farm’s calendar', (today, expected) => {
    for (const [machineId, seasons] of Object.entries(expected)) {
      expect(demoSeasonsOf(machineId, today).map((season) => `${season.name} ${season.emergence}`)).toEqual(seasons);
    }
  });
});

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
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await t?.close();
  }, 120_000);

  async function demoMachines(): Promise<{ id: number; internalId: string }[]> {
    const response = await demo.get('/api/sprinkler/');
    expect(response.status).toBe(200);
    return SprinklerListResponseSchema.parse(response.body);
  }

  it('looks for water stress as soon as its seasons are in, not at the next hourly look', async () => {
    // The look reads every season's balance, which is made from emergence on and kept.
    await vi.waitFor(() => expect(t.app.waterBalance.keptStates.counts.fromEmergence).toBeGreaterThan(0), {
      timeout: 30_000,
    });
  });

  it('comes with the crop seasons in the field today', async () => {
    const machines = await demoMachines();
    expect(machines).toHaveLength(DEMO_MACHINES.length);
    const today = localDate(TIME_ZONE, Date.now());
    for (const machine of machines) {
      const response = await demo.get(`/api/sprinkler/${machine.id}/crop-seasons/`);
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(CropSeasonListSchema.parse(response.body).sort(byName)).toEqual(
        demoSeasonsOf(machine.internalId, today).sort(byName),
      );
    }
  });

  it('has the season’s weather and water at once, and each machine’s depth at 100 % as a real pivot’s', async () => {
    await t.app.waterAccounting.runOnce();
    const today = localDate(TIME_ZONE, Date.now());
    let watered = 0;
    for (const machine of await demoMachines()) {
      const demoMachine = DEMO_MACHINES.find((candidate) => candidate.id === machine.internalId)!;
      const seasons = seasonsOfBalance(machine.internalId);
      const balance = WaterBalanceSchema.parse((await demo.get(`/api/sprinkler/${machine.id}/water-balance/`)).body);
      if (seasons.length > 0) {
        expect(balance.reason).toBeNull();
        // Its probes' readings of yesterday evening, from the history, correct the model.
        expect(
          balance.probes.some((probe) => probe.used),
          machine.internalId,
        ).toBe(true);
        expect(balance.missingWeatherDays).toBe(0);
        expect(balance.zones.map((zone) => zone.name).sort()).toEqual(seasons.map((season) => season.name).sort());
      }
      // The turn at 100 % of its arm at its top speed, pumping its flow, over its circle.
      const turnHours = (2 * Math.PI * demoMachine.armLength) / demoMachine.topSpeed / 60;
      const physics = ((demoMachine.flow * turnHours) / (Math.PI * demoMachine.armLength ** 2)) * 1000;
      const depth = ApplicationDepthSchema.parse(
        (await demo.get(`/api/sprinkler/${machine.id}/application-depth/`)).body,
      );
      if (depth.learned !== null) {
        expect(depth.learned, machine.internalId).toBeGreaterThan(physics * 0.97);
        expect(depth.learned, machine.internalId).toBeLessThan(physics * 1.03);
        expect(depth.learned).toBeGreaterThanOrEqual(3);
        expect(depth.learned).toBeLessThanOrEqual(15);
      }
      const [year, month, day] = today.split('-');
      const start = new Date(Date.now() - 120 * DAY_MS).toISOString().slice(0, 10).split('-').reverse().join('.');
      const watermap = WatermapResponseSchema.parse(
        (await demo.get(`/api/sprinkler/${machine.id}/watermap/?start=${start}&stop=${day}.${month}.${year}`)).body,
      );
      if (watermap.data.length > 0) watered += 1;
    }
    expect(watered).toBeGreaterThanOrEqual(3);
    // Counting the season's passes into the watermap takes a while on a busy machine.
  }, 300_000);

  it('gives every machine with a season its pace, and a program from the advice that waters only what is due', async () => {
    let withSeason = 0;
    for (const machine of await demoMachines()) {
      if (seasonsOfBalance(machine.internalId).length === 0) continue;
      withSeason += 1;
      // Learned from its history's passes, however long ago the last one was.
      const depth = ApplicationDepthSchema.parse(
        (await demo.get(`/api/sprinkler/${machine.id}/application-depth/`)).body,
      );
      expect(depth.learned, machine.internalId).not.toBeNull();
      const program = ProgramFromAdviceSchema.parse(
        (await demo.get(`/api/sprinkler/${machine.id}/program-from-advice/`)).body,
      );
      expect([null, 'nothing_due'], machine.internalId).toContain(program.reason);
      expect(program.revolutionHours, machine.internalId).toBeGreaterThan(0);
      // Nothing watered that the advice did not ask for: a crop area out of season is dry in the demo's program.
      for (const sector of program.sectors.filter((candidate) => candidate.source === 'kept')) {
        expect(sector.rate, `${machine.internalId} ${sector.name}`).toBeLessThanOrEqual(0);
      }
    }
    expect(withSeason).toBeGreaterThan(0);
  });

  it('tells the farm’s past once: a second start stores nothing more', async () => {
    const history = simulateDemoHistory(Date.now());
    expect(await seedDemoWeather(t.app, history)).toBe(0);
    expect(await seedDemoReports(t.app, history)).toBe(0);
    expect(await seedDemoSoil(t.app, history)).toBe(0);
  });
});
