import { LogListResponseSchema, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertWords } from '../../src/modules/alerts/alert-wording';
import { tryLockWatch } from '../../src/modules/incidents/incidents.repository';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { stopOwnLooks } from '../support/incident-watch';
import { type TestApp, createTestApp } from '../support/test-app';
import { dotted, warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const DAYS = 12;

const dayReadings = (date: string) => warmDryDay('WS-STRESS', date, TIME_ZONE);

describe('the water stress incident', () => {
  let t: TestApp;
  let admin: ApiClient;
  let farmer: ApiClient;
  let farmerId: number;
  let sprinklerId: number;
  let internalId: string;
  const today = localDate(TIME_ZONE, Date.now());
  const season = (crop: unknown, soil: string) => [
    { name: 'Ziemniaki', polygon: null, crop, emergence: dotted(addDays(today, -DAYS)), soil },
  ];

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    await stopOwnLooks(t);
    const machine = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 100 });
    sprinklerId = machine.id;
    internalId = machine.internalId;
    const user = await t.signedInUser({ language: 'pl' });
    farmer = user.client;
    farmerId = user.user.id;
    await grant(t, sprinklerId, user.user.id);
    admin = await t.adminClient();
    for (let day = DAYS; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(dayReadings(addDays(today, -day)));
    }
    // Potatoes on sand after twelve warm dry days without water: beyond RAW.
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, season('potato', 'sand'))).status).toBe(
      200,
    );
  });
  afterAll(() => t.close());

  async function logged(eventType: string) {
    const log = LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    return log.data.filter((entry) => entry.eventType === eventType && entry.sprinklerInternalId === internalId);
  }

  it('begins once when a zone is drier than its RAW, naming the zone, and ends when none is', async () => {
    const [zone] = WaterBalanceSchema.parse(
      (await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`)).body,
    ).zones;
    expect(zone!.depletion).toBeGreaterThan(zone!.raw);

    await t.app.waterStress.lookOnce();
    await t.app.waterStress.lookOnce();
    const began = await logged('sprinkler_water_stress');
    expect(began).toHaveLength(1);
    expect(began[0]).toMatchObject({ event: 'Ziemniaki' });
    // An alert kind as the others: the defaults take it, and a farmer who leaves it out is not told.
    expect(
      (await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]))(sprinklerId, 'water_stress', 'in_app'),
    ).toContain(farmerId);
    const own = { kinds: ['alarm', 'offline'], channels: ['in_app'], mutedMachineIds: [] };
    expect((await farmer.put('/api/account/alerts/', own)).status).toBe(200);
    expect(
      (await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]))(sprinklerId, 'water_stress', 'in_app'),
    ).not.toContain(farmerId);

    // Deep roots on loam hold the same weeks of weather well within RAW: it ends, once.
    const deep = { kc: [0.5, 1.1, 0.6], stages: [30, 40, 50, 30], rootDepth: [1.0, 1.2], p: 0.5 };
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, season(deep, 'loam'))).status).toBe(200);
    await t.app.waterStress.lookOnce();
    await t.app.waterStress.lookOnce();
    expect(await logged('sprinkler_water_stress_over')).toHaveLength(1);
    expect(await logged('sprinkler_water_stress')).toHaveLength(1);
  });

  it("looks while the incident watch holds their shared lock, once the watch's look has ended", async () => {
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, season('potato', 'sand'))).status).toBe(
      200,
    );
    let releaseWatch!: () => void;
    const watchHeld = new Promise<void>((resolve) => {
      releaseWatch = resolve;
    });
    let watchLocked!: () => void;
    const locked = new Promise<void>((resolve) => {
      watchLocked = resolve;
    });
    // A look of the incident watch that lasts: its transaction holds the lock until let go.
    const watchLook = t.database.db.transaction(async (tx) => {
      expect(await tryLockWatch(tx)).toBe(true);
      watchLocked();
      await watchHeld;
    });
    await locked;
    const look = t.app.waterStress.lookOnce();
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseWatch();
    await Promise.all([watchLook, look]);
    expect(await logged('sprinkler_water_stress')).toHaveLength(2);
  });

  it('is told in each reader’s language', () => {
    const alert = {
      kind: 'water_stress' as const,
      phase: 'began' as const,
      sprinklerName: 'Pole 1',
      detail: 'Ziemniaki',
    };
    expect(alertWords('pl', alert)).toEqual({
      title: 'Stres wodny',
      sentence: 'Gleba na maszynie Pole 1 jest suchsza niż pozwala woda łatwo dostępna (RAW): Ziemniaki',
    });
    expect(alertWords('en', alert).title).toBe('Water stress');
    expect(alertWords('en', { ...alert, phase: 'ended' }).sentence).toBe(
      'The soil at machine Pole 1 holds its readily available water again',
    );
  });
});
