import {
  METRES_PER_DEGREE,
  type ProgramData,
  SOIL_TEXTURES,
  type WaterBalanceArea,
  type WaterBalanceSeasonArea,
  WaterBalanceSchema,
  WaterBalanceSeasonSchema,
} from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineState, telemetry } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate, localMidnight } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant, halfCircle } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';
import { dotted, expectTomorrowRefused, warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 100;
const HOUR_MS = 3_600_000;
/** Days of weather before today; the east zone emerged on the first, the west 4 days later. */
const DAYS = 16;
const STAGES = [6, 10, 40, 30] as const;
/** The day (from the first) the North sector's rain gauge read 8 mm. */
const GAUGE_DAY = 10;
const KC = [0.4, 1.1, 0.6] as const;

/** A half of the machine's circle, a little beyond its arm, clockwise from `from`°. */
const half = (from: number) => halfCircle(CENTRE, from, ARM * 1.2);
const polygon = (ring: [number, number][]) => ({ type: 'Polygon' as const, coordinates: [ring] });

/** A position `east` and `north` metres from the centre. */
function offsetFromCentre(east: number, north: number) {
  return {
    lat: CENTRE.lat + north / METRES_PER_DEGREE,
    lng: CENTRE.lng + east / (METRES_PER_DEGREE * Math.cos((CENTRE.lat * Math.PI) / 180)),
  };
}
/** The East zone's probe: its moisture (%) on each day of the season, read at 20:00; none on the 6th and 7th. */
const eastMoisture = (day: number) => (day === 5 || day === 6 ? null : 17 + (day % 5));

/** The fields the balance of a day and the season's day share. */
const FIELDS = ['depletion', 'taw', 'raw', 'rain', 'applied', 'et0', 'etc', 'ks'] as const;

function seasonDayOf(series: WaterBalanceSeasonArea, index: number) {
  return Object.fromEntries(FIELDS.map((field) => [field, series[field][index]]));
}

describe('GET /api/sprinkler/{id}/water-balance/season/', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let id: number;
  const today = localDate(TIME_ZONE, Date.now());
  const first = addDays(today, -DAYS);
  const yesterday = addDays(today, -1);
  const path = () => `/api/sprinkler/${id}/water-balance/season/`;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    const crop = (name: string, ring: [number, number][]) => ({
      type: 'Feature' as const,
      geometry: polygon(ring),
      properties: { kind: 'crop', name },
    });
    const pivot = await buildSprinkler(t, {
      lat: '52.300000',
      lng: '17.200000',
      armLength: ARM,
      areaMap: { type: 'FeatureCollection', features: [crop('East', half(0.25)), crop('West', half(180.25))] },
    });
    id = pivot.id;
    const control = await t.signedInUser();
    farmer = control.client;
    await grant(t, id, control.user.id);
    const watching = await t.signedInUser();
    watcher = watching.client;
    await grant(t, id, watching.user.id, 'watch');
    stranger = (await t.signedInUser()).client;
    for (let day = 0; day < DAYS; day += 1) {
      const readings = warmDryDay('WS-SEASON', addDays(first, day), TIME_ZONE);
      // Rain on the 5th day: 12 mm that counts.
      if (day === 4) readings[6]!.rain = 12;
      await t.database.db.insert(weatherReadings).values(readings);
    }
    // One pass on the 9th day from 10:00: two hours turning at 0.01°/s from 10° (72°), 72 m³/h.
    const from = localMidnight(TIME_ZONE, addDays(first, 8)).getTime() + 10 * HOUR_MS;
    const rows = [];
    for (let second = 0; second <= 2 * 3600; second += 5) {
      rows.push({
        machineId: pivot.internalId,
        ts: new Date(from + second * 1000),
        status: 'front' as const,
        angle: 10 + second * 0.01,
        distance: ARM,
        speed: 50,
        pressure: 2.5,
        flow: 72,
      });
    }
    await t.database.db.insert(telemetry).values(rows);
    await t.app.waterAccounting.runOnce(new Date());
    // Soil probes correct the days: the East one most evenings, the West one on four days only.
    for (let day = 0; day < DAYS; day += 1) {
      const evening = localMidnight(TIME_ZONE, addDays(first, day)).getTime() + 20 * HOUR_MS;
      const probe = (sensor: string, position: { lat: number; lng: number }, moisture: number) =>
        t.app.weather.recordSoil(
          { machineId: pivot.internalId, deviceId: sensor },
          { v: 1, ts: evening, ...position, moisture, depth: 30 },
        );
      const moisture = eastMoisture(day);
      if (moisture !== null) await probe('PROBE-EAST', offsetFromCentre(40, 10), moisture);
      if (day >= 8 && day <= 11) await probe('PROBE-WEST', offsetFromCentre(-40, -10), 22 + (day % 3));
    }
    const custom = { kc: [...KC], stages: [...STAGES], rootDepth: [0.2, 0.6], p: 0.5 };
    const put = await farmer.put(`/api/sprinkler/${id}/crop-seasons/`, [
      { name: 'East beans', polygon: 'East', crop: custom, emergence: dotted(first), soil: 'sandy-loam' },
      { name: 'West potato', polygon: 'West', crop: 'potato', emergence: dotted(addDays(first, 4)), soil: 'loam' },
    ]);
    expect(put.status).toBe(200);
    // A program whose northern sector holds parts of both zones.
    const program: ProgramData = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: polygon(half(270.25)), properties: { name: 'North', rate: 10 } },
        { type: 'Feature', geometry: polygon(half(90.25)), properties: { name: 'South', rate: 10 } },
      ],
    };
    await t.database.db
      .insert(machineState)
      .values({ machineId: pivot.internalId, programName: 'P', programData: program });
    // The North sector's own gauge read 8 mm on the 11th day, a dry day at the station.
    const gauge = await farmer.post(`/api/sprinkler/${id}/records/`, {
      kind: 'rain_gauge',
      date: dotted(addDays(first, GAUGE_DAY)),
      area: { kind: 'sector', name: 'North' },
      mm: 8,
    });
    expect(gauge.status).toBe(201);
  });
  afterAll(() => t.close());

  const season = async (client: ApiClient, date?: string) => {
    const response = await client.get(path(), { query: date === undefined ? {} : { date: dotted(date) } });
    expect(response.status).toBe(200);
    return WaterBalanceSeasonSchema.parse(response.body);
  };
  const balance = async (date: string) => {
    const response = await farmer.get(`/api/sprinkler/${id}/water-balance/`, { query: { date: dotted(date) } });
    expect(response.status).toBe(200);
    return WaterBalanceSchema.parse(response.body);
  };
  const sameDay = (area: WaterBalanceArea) => Object.fromEntries(FIELDS.map((field) => [field, area[field]]));

  it("gives each zone's and sector's days as the balance of each of those days answers them", async () => {
    const answer = await season(farmer);
    expect(answer).toMatchObject({ date: dotted(yesterday), reason: null, station: 'WS-SEASON' });
    expect(answer.zones.map((zone) => zone.name)).toEqual(['East beans', 'West potato']);
    expect(answer.sectors.map((sector) => sector.name)).toEqual(['North', 'South']);
    const [east, west] = answer.zones;
    expect(east).toMatchObject({ firstDay: dotted(first), measuredDays: DAYS });
    expect(west).toMatchObject({ firstDay: dotted(addDays(first, 4)), measuredDays: DAYS - 4 });
    // The sectors hold both zones: their days start with the earlier emergence.
    for (const sector of answer.sectors) expect(sector).toMatchObject({ firstDay: dotted(first), measuredDays: DAYS });

    for (let day = 0; day < DAYS; day += 1) {
      const date = addDays(first, day);
      const balanceOfDay = await balance(date);
      const eastOfDay = balanceOfDay.zones.find((zone) => zone.name === 'East beans')!;
      expect(seasonDayOf(east!, day), date).toEqual(sameDay(eastOfDay));
      if (day >= 4) {
        const westOfDay = balanceOfDay.zones.find((zone) => zone.name === 'West potato')!;
        expect(seasonDayOf(west!, day - 4), date).toEqual(sameDay(westOfDay));
      }
      for (const sector of answer.sectors) {
        const sectorOfDay = balanceOfDay.sectors.find((candidate) => candidate.name === sector.name)!;
        expect(seasonDayOf(sector, day), `${sector.name} ${date}`).toEqual(sameDay(sectorOfDay));
      }
    }
    // Before the pass every East cell holds one depletion: a probe's day is its probe's (Eq. 87 by hand).
    const rootDepth = (day: number) => 0.2 + (0.4 * day) / (STAGES[0] + STAGES[1] - 1);
    const fieldCapacity = SOIL_TEXTURES['sandy-loam'].fieldCapacity;
    for (const day of [2, 3, 7]) {
      expect(east!.depletion[day]).toBeCloseTo(1000 * (fieldCapacity - eastMoisture(day)! / 100) * rootDepth(day), 1);
    }
    // The sector's gauge is its rain bar's that day, and the zones' share of it (their cells under it).
    const north = answer.sectors.find((sector) => sector.name === 'North')!;
    expect(north.rain[GAUGE_DAY]).toBe(8);
    expect(north.effectiveRain[GAUGE_DAY]).toBe(8);
    expect(east!.rain[GAUGE_DAY]).toBeGreaterThan(0);
    expect(east!.rain[GAUGE_DAY]).toBeLessThan(8);
    expect((await balance(addDays(first, GAUGE_DAY))).lastRain).toBe(dotted(addDays(first, GAUGE_DAY)));
    expect((await balance(addDays(first, GAUGE_DAY - 1))).lastRain).toBe(dotted(addDays(first, 4)));
    // The rain of the 5th day and the pass of the 9th are in the days.
    expect(east!.rain[4]).toBe(12);
    expect(east!.effectiveRain[4]).toBe(12);
    expect(Math.max(...east!.applied)).toBeGreaterThan(1);
    expect(east!.applied.findIndex((water) => water > 0)).toBe(8);
  });

  it('gives the growth stage and Kc of each day (Eq. 66)', async () => {
    const [east] = (await season(farmer)).zones;
    expect(east!.stage.slice(0, 6)).toEqual(Array(6).fill('initial'));
    expect(east!.stage[6]).toBe('development');
    expect(east!.kc[0]).toBe(KC[0]);
    // Day 10 of the season, 4 days into the 10-day development stage.
    expect(east!.kc[9]).toBeCloseTo(KC[0] + (4 / STAGES[1]) * (KC[1] - KC[0]), 3);
    expect(east!.etc[9]).toBeCloseTo(east!.kc[9]! * east!.et0[9]!, 1);
  });

  it('goes on with the coming days up to the next irrigation, as the advice steps them', async () => {
    const answer = await season(farmer);
    const dayBalance = await balance(yesterday);
    for (const series of [...answer.zones, ...answer.sectors]) {
      const area = [...dayBalance.zones, ...dayBalance.sectors].find((candidate) => candidate.name === series.name)!;
      expect(series.nextIrrigation).toBe(area.nextIrrigation);
      expect(series.nextIrrigation).not.toBeNull();
      const lastDay = addDays(today, series.depletion.length - series.measuredDays - 1);
      expect(dotted(lastDay), series.name).toBe(series.nextIrrigation);
      const coming = series.depletion.slice(series.measuredDays);
      expect(series.applied.slice(series.measuredDays).every((water) => water === 0)).toBe(true);
      // The recent ET0 brings no rain: each coming day's end is the next day's start, which the advice answers.
      if (series === answer.zones[0] || series === answer.zones[1]) {
        coming.slice(0, -1).forEach((depletion, index) => {
          expect(depletion).toBeCloseTo(area.expectedDepletion[index + 1]!, 1);
        });
        // The last day is the one the depletion has reached RAW.
        expect(area.expectedDepletion[coming.length - 1]!).toBeGreaterThanOrEqual(series.raw.at(-1)! - 0.01);
      }
    }
  });

  it('answers the same from its kept days, day after day', async () => {
    const earlier = await season(farmer, addDays(today, -3));
    expect(earlier.zones[0]!.measuredDays).toBe(DAYS - 2);
    const { counts } = t.app.waterBalance.seasonStates;
    const resumed = counts.resumed;
    const again = await season(farmer);
    // Gone on from the days kept by the first answer (the earlier day did not replace them).
    expect(counts.resumed).toBe(resumed + 2);
    const fresh = await season(farmer);
    expect(again).toEqual(fresh);
    const [east] = again.zones;
    // The earlier answer's measured days are the later's first days.
    expect(east!.depletion.slice(0, DAYS - 2)).toEqual(earlier.zones[0]!.depletion.slice(0, DAYS - 2));
  });

  it('is read by whoever sees the machine, and refused as the balance is', async () => {
    expect((await season(watcher)).zones).toHaveLength(2);
    const hidden = await stranger.get(path());
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: 'sprinkler_not_found' });
    expect((await farmer.get(path(), { query: { date: '31.02.2026' } })).status).toBe(400);
    const ask = (date: string, language: string) =>
      farmer.get(path(), { query: { date: dotted(date) }, headers: { 'accept-language': language } });
    expect((await ask(today, 'en')).status).toBe(200);
    await expectTomorrowRefused(ask, today);
    expect(await season(farmer, addDays(first, -1))).toMatchObject({ reason: 'no_season', zones: [], sectors: [] });
  });
});
