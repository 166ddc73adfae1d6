import { MAX_CORNERS_PER_MESSAGE, MAX_POLYGON_CORNERS, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../src/time/local-day';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { combRing, features } from '../support/hostile-shapes';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { dotted, warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const COMBS = MAX_CORNERS_PER_MESSAGE / MAX_POLYGON_CORNERS;

describe('the water balance of a machine whose map is as detailed as a request may carry', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let sprinklerId: number;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    // The longest arm the protocol allows: about 125,000 cells of 10 m.
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 2000 });
    sprinklerId = pivot.id;
    const clients: ApiClient[] = [];
    for (const level of ['control', 'watch'] as const) {
      const user = await t.buildUser();
      await grant(t, pivot.id, user.id, level);
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      clients.push(client);
    }
    [farmer, watcher] = clients as [ApiClient, ApiClient];
    const yesterday = localDate(TIME_ZONE, Date.now() - 86_400_000);
    const emergence = addDays(yesterday, -4);
    for (let day = 0; day <= 4; day += 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay('WS-DETAILED', addDays(emergence, day), TIME_ZONE));
    }
    const areaMap = {
      type: 'FeatureCollection',
      features: features(
        COMBS,
        (lng, lat) => [combRing(MAX_POLYGON_CORNERS, lng, lat)],
        (index) => ({
          kind: 'crop',
          name: `Comb ${index + 1}`,
          cropSeasons: [
            { name: `Maize ${index + 1}`, crop: 'maize-grain', emergence: dotted(emergence), soil: 'loam' },
          ],
        }),
        { lng: CENTRE.lng - 0.012, lat: CENTRE.lat - 0.012 },
      ),
    };
    const imported = await farmer.put(`/api/sprinkler/${sprinklerId}/area-map/`, areaMap);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200);
  });
  afterAll(() => t.close());

  /** Asks for the balance while asking health every 20 ms; the longest health took, in ms. */
  async function balanceWhilePinging(client: ApiClient) {
    let done = false;
    let longestHealthMs = 0;
    const pinging = (async () => {
      while (!done) {
        const asked = performance.now();
        await t.client().get('/api/health');
        longestHealthMs = Math.max(longestHealthMs, performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const response = await client.get(`/api/sprinkler/${sprinklerId}/water-balance/`);
    done = true;
    await pinging;
    expect(response.status).toBe(200);
    return { balance: WaterBalanceSchema.parse(response.body), longestHealthMs };
  }

  it('answers a watcher while health stays responsive, and works out the crop areas’ cells once per map', async () => {
    const polygonsBefore = t.app.waterBalance.covers.counts.polygons;
    const first = await balanceWhilePinging(watcher);
    expect(first.balance.zones.map((zone) => zone.name).sort()).toEqual(
      Array.from({ length: COMBS }, (_, index) => `Maize ${index + 1}`).sort(),
    );
    // Each comb holds cells of its teeth only: a few hundred, not its bounding box's.
    for (const zone of first.balance.zones) expect(zone.taw).toBeGreaterThan(0);
    expect(first.balance.cells.length).toBeGreaterThan(1000);
    // Every cell against every edge took seconds here (and 30 s for the 95 combs an import once let through).
    expect(first.longestHealthMs).toBeLessThan(1000);
    expect(t.app.waterBalance.covers.counts.polygons - polygonsBefore).toBe(COMBS);

    const second = await balanceWhilePinging(farmer);
    expect(second.balance.cells).toEqual(first.balance.cells);
    expect(second.longestHealthMs).toBeLessThan(1000);
    expect(t.app.waterBalance.covers.counts.polygons - polygonsBefore).toBe(COMBS);
  });

  it('works the cells out again once the map changes', async () => {
    const before = t.app.waterBalance.covers.counts.polygons;
    const exported = await farmer.get(`/api/sprinkler/${sprinklerId}/area-map/`);
    const file = exported.body as { features: { properties: Record<string, unknown> }[] };
    file.features[0]!.properties.colour = 'green';
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/area-map/`, file)).status).toBe(200);
    await watcher.get(`/api/sprinkler/${sprinklerId}/water-balance/`);
    expect(t.app.waterBalance.covers.counts.polygons - before).toBe(COMBS);
  });
});
