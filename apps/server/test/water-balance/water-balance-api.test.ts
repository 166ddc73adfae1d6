import { type GeoJson, type ProgramData, WatermapResponseSchema, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import { machineState, telemetry } from '../../src/modules/telemetry/telemetry.table';
import { referenceEvapotranspiration } from '../../src/modules/weather/reference-evapotranspiration';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const HOUR_MS = 60 * 60 * 1000;
/** June in Warsaw is UTC+2: local midnight of day d of June 2026. */
const localMidnight = (day: number) => Date.UTC(2026, 5, day) - 2 * HOUR_MS;
const CENTRE = { lat: 52.3, lng: 17.2 };
const STATION = { lat: 52.301, lng: 17.2 };
const DAYS = 7;
/** The rain of each day of June, mm: 6 mm on the 2nd counts; 0.4 mm on the 5th is under 0.2 ET0 and is ignored. */
const RAIN: Record<number, number> = { 2: 6, 5: 0.4 };

// The season: a custom crop (taken as given: no climate adjustment, p fixed) on loam (Table 19's middles).
const KC_INITIAL = 0.5;
const STAGES = [10, 20, 30, 20] as const;
const ROOT_DEPTH = [0.2, 0.6] as const;
const P = 0.5;
const FIELD_CAPACITY = 0.25;
const WILTING_POINT = 0.12;
const EFFICIENCY = 0.85;

/** An hourly reading of a summer day: warm and dry at noon, cool and humid at night. */
function hourlyReadings(day: number) {
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId: 'WS-BALANCE',
      machineId: null,
      ts: new Date(localMidnight(day) + hour * HOUR_MS + 30 * 60 * 1000),
      lat: STATION.lat,
      lng: STATION.lng,
      temperature: 11 + day * 0.5 + 12 * daylight,
      humidity: 90 - 40 * daylight,
      rain: hour === 6 ? (RAIN[day] ?? 0) : 0,
      wind: 1.5 + (hour % 3) * 0.5,
      solarRadiation: 750 * daylight,
    };
  });
}

/** The day's ET0 as FAO-56 Penman-Monteith gives it from the day's readings, as the weather module summarises them. */
function dayReference(day: number): number {
  const readings = hourlyReadings(day);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const date = Date.UTC(2026, 5, day, 12);
  return referenceEvapotranspiration({
    dayOfYear: Math.floor((date - Date.UTC(2026, 0, 0)) / (24 * HOUR_MS)),
    latitudeDegrees: STATION.lat,
    elevationM: 100,
    minTemperature: Math.min(...readings.map((reading) => reading.temperature)),
    maxTemperature: Math.max(...readings.map((reading) => reading.temperature)),
    minHumidity: Math.min(...readings.map((reading) => reading.humidity)),
    maxHumidity: Math.max(...readings.map((reading) => reading.humidity)),
    wind: mean(readings.map((reading) => reading.wind)),
    // W/m² averaged over the day → MJ/m² over the day.
    solarRadiation: mean(readings.map((reading) => reading.solarRadiation)) * 0.0864,
  });
}

// FAO-56's formulas, written out: roots (Annex 8, Eq. 8-3), TAW (Eq. 82), RAW (Eq. 83).
const rootDepth = (day: number) =>
  Math.min(ROOT_DEPTH[1], ROOT_DEPTH[0] + ((ROOT_DEPTH[1] - ROOT_DEPTH[0]) * (day - 1)) / (STAGES[0] + STAGES[1] - 1));
const taw = (day: number) => 1000 * (FIELD_CAPACITY - WILTING_POINT) * rootDepth(day);
const raw = (day: number) => P * taw(day);

/** One cell's depletion at the end of each day from its water of each day (Eq. 84, 85, 86, water early in the day). */
function handBalance(appliedOn: (day: number) => number) {
  let depletion = 0; // field capacity at emergence
  const series: number[] = [];
  for (let day = 1; day <= DAYS; day += 1) {
    const et0 = dayReference(day);
    const rain = RAIN[day] ?? 0;
    const effectiveRain = rain < 0.2 * et0 ? 0 : rain;
    const start = Math.max(depletion - effectiveRain - appliedOn(day) * EFFICIENCY, 0);
    const ks = start > raw(day) ? (taw(day) - start) / (taw(day) - raw(day)) : 1;
    // All 7 days lie in the initial stage (10 days): Kc = Kc ini (Eq. 66).
    depletion = start + Math.min(ks * KC_INITIAL * et0, taw(day) - start);
    series.push(depletion);
  }
  return series;
}

describe('the water balance API', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let sprinklerId: number;
  let internalId: string;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 150 });
    sprinklerId = pivot.id;
    internalId = pivot.internalId;
    const clients: ApiClient[] = [];
    for (const level of ['control', 'watch', null] as const) {
      const user = await t.buildUser();
      if (level !== null) await grant(t, pivot.id, user.id, level);
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      clients.push(client);
    }
    [farmer, watcher, stranger] = clients as [ApiClient, ApiClient, ApiClient];

    for (let day = 1; day <= DAYS; day += 1) await t.database.db.insert(weatherReadings).values(hourlyReadings(day));
    // One pass on 4 June from 10:00 local time: two hours turning at 0.01°/s (72°), 72 m³/h.
    const rows = [];
    const from = localMidnight(4) + 10 * HOUR_MS;
    for (let second = 0; second <= 2 * 3600; second += 5) {
      rows.push({
        machineId: internalId,
        ts: new Date(from + second * 1000),
        status: 'front' as const,
        angle: (10 + second * 0.01) % 360,
        distance: 150,
        speed: 50,
        pressure: 2.5,
        flow: 72,
      });
    }
    await t.database.db.insert(telemetry).values(rows);
    await t.app.waterAccounting.runOnce(new Date());

    const seasons = await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, [
      {
        name: 'Test crop 2026',
        polygon: null,
        crop: { kc: [KC_INITIAL, 1.1, 0.6], stages: [...STAGES], rootDepth: [...ROOT_DEPTH], p: P },
        emergence: '01.06.2026',
        soil: { fieldCapacity: FIELD_CAPACITY, wiltingPoint: WILTING_POINT },
      },
    ]);
    expect(seasons.status).toBe(200);
  });
  afterAll(() => t.close());

  async function balanceOf(client: ApiClient, date?: string) {
    const response = await client.get(`/api/sprinkler/${sprinklerId}/water-balance/`, {
      query: date === undefined ? {} : { date },
    });
    expect(response.status).toBe(200);
    return WaterBalanceSchema.parse(response.body);
  }

  it('gives each cell, the zone and the next irrigation as a hand computation from the same readings', async () => {
    const balance = await balanceOf(farmer, '07.06.2026');
    expect(balance).toMatchObject({ date: '07.06.2026', reason: null, station: 'WS-BALANCE', missingWeatherDays: 0 });
    // The station's last rain: the 0.4 mm of 5 June, measured though the balance ignores it.
    expect(balance.lastRain).toBe('05.06.2026');
    // The tests' servers run without the forecast: the coming days are the recent ET0, and the answer says why.
    expect(balance).toMatchObject({ forecast: 'recent-et0', forecastFallback: 'off' });
    expect(balance.step).toBe(10);

    // The water of 4 June on each cell, as the watermap serves it (0.1 mm).
    const map = await farmer.get(`/api/sprinkler/${sprinklerId}/watermap/`, {
      query: { start: '04.06.2026', stop: '04.06.2026' },
    });
    const waterAt = new Map(WatermapResponseSchema.parse(map.body).data.map(([lat, lng, mm]) => [`${lat},${lng}`, mm]));
    expect(waterAt.size).toBeGreaterThan(20);

    // Every cell within the arm's reach, each with its own water.
    expect(balance.cells.length).toBeGreaterThan(600);
    const handDepletions: number[] = [];
    let wateredCells = 0;
    for (const [lat, lng, depletion, cellTaw, lastWater] of balance.cells) {
      const water = waterAt.get(`${lat},${lng}`) ?? 0;
      if (water > 0) wateredCells += 1;
      // Its last water: 4 June, 3 days before the 7th, exactly on the cells the watermap shows
      // watered (0.1 mm and more); a cell it shows dry got none the map would show.
      expect(lastWater).toBe(water > 0 ? 3 : null);
      const hand = handBalance((day) => (day === 4 ? water : 0))[DAYS - 1]!;
      handDepletions.push(hand);
      // The watermap's 0.1 mm and the answer's 0.1 mm: within 0.1 mm.
      expect(Math.abs(depletion - hand)).toBeLessThan(0.1);
      expect(cellTaw).toBeCloseTo(taw(DAYS), 1);
    }
    expect(wateredCells).toBe(waterAt.size);

    const dryCell = handBalance(() => 0);
    const handMean = handDepletions.reduce((sum, value) => sum + value, 0) / handDepletions.length;
    const [zone] = balance.zones;
    expect(balance.zones).toHaveLength(1);
    expect(zone!.name).toBe('Test crop 2026');
    expect(Math.abs(zone!.depletion - handMean)).toBeLessThan(0.05);
    expect(zone!.depletionMax).toBeCloseTo(dryCell[DAYS - 1]!, 1);
    expect(zone!.depletionMin).toBeLessThan(zone!.depletionMax - 1);
    expect(zone!.taw).toBeCloseTo(taw(DAYS), 2);
    expect(zone!.raw).toBeCloseTo(raw(DAYS), 2);
    expect(zone!.et0).toBeCloseTo(dayReference(DAYS), 2);
    expect(zone!.etc).toBeCloseTo(KC_INITIAL * dayReference(DAYS), 2);
    expect(zone!.rain).toBe(0);
    expect(zone!.applied).toBe(0);
    expect(zone!.ks).toBe(1);

    // Next irrigation without a forecast: each coming day's own Kc (Eq. 66: the development stage
    // begins on day 11) times the last 7 days' mean ET0, no rain, from the zone's mean depletion;
    // water is due on the first day whose depletion has reached its RAW.
    const kc = (day: number) =>
      day <= STAGES[0] ? KC_INITIAL : KC_INITIAL + ((day - STAGES[0]) / STAGES[1]) * (1.1 - KC_INITIAL);
    let meanReference = 0;
    for (let day = 1; day <= DAYS; day += 1) meanReference += dayReference(day) / DAYS;
    let current = handMean;
    let dueDay = DAYS + 1;
    while (!(current > 0 && current >= raw(dueDay))) {
      current = Math.min(taw(dueDay), current + kc(dueDay) * meanReference);
      dueDay += 1;
    }
    expect(dueDay).toBeGreaterThan(STAGES[0]);
    expect(dueDay).toBeGreaterThan(DAYS + 1);
    expect(zone!.nextIrrigation).toBe(`${String(dueDay).padStart(2, '0')}.06.2026`);
    expect(zone!.netDose).toBeCloseTo(current, 1);
    expect(zone!.grossDose).toBeCloseTo(current / EFFICIENCY, 1);
    // The depth at 100 % is learned from the pass of 4 June: at 50 % the arm turned 0.01°/s, so a
    // circle at 100 % takes 5 h, and 72 m³/h over those 5 h spread over the 150 m arm's circle.
    const depthAtFullSpeed = ((72 * 5) / (Math.PI * 150 * 150)) * 1000;
    expect(zone!.percentTimer).toBeCloseTo((100 * depthAtFullSpeed) / (current / EFFICIENCY), 0);

    // Rain of 2 June counted (6 mm ≥ 0.2 ET0), the 0.4 mm of 5 June not: the dry cell shows both.
    expect(dayReference(2) * 0.2).toBeLessThan(6);
    expect(dayReference(5) * 0.2).toBeGreaterThan(0.4);
  });

  it("gives the active program's sectors their cells' state", async () => {
    const east: ProgramData = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [17.2, 52.29],
                [17.21, 52.29],
                [17.21, 52.31],
                [17.2, 52.31],
                [17.2, 52.29],
              ],
            ],
          },
          properties: { name: 'East', rate: 10 },
        },
      ],
    };
    await t.database.db.insert(machineState).values({ machineId: internalId, programName: 'East', programData: east });
    const balance = await balanceOf(farmer, '07.06.2026');
    const eastCells = balance.cells.filter(([, lng]) => lng > CENTRE.lng);
    const [sector] = balance.sectors;
    expect(balance.sectors).toHaveLength(1);
    expect(sector!.name).toBe('East');
    const mean = eastCells.reduce((sum, [, , depletion]) => sum + depletion, 0) / eastCells.length;
    expect(Math.abs(sector!.depletion - mean)).toBeLessThan(0.06);
    expect(sector!.taw).toBeCloseTo(taw(DAYS), 2);
    await t.database.db.delete(machineState);
  });

  it('counts the days the station did not report, and takes no ET0 on them', async () => {
    const balance = await balanceOf(farmer, '09.06.2026');
    expect(balance.missingWeatherDays).toBe(2);
    expect(balance.zones[0]!.et0).toBe(0);
    expect(balance.zones[0]!.etc).toBe(0);
    const seventh = await balanceOf(farmer, '07.06.2026');
    // No ET0, no rain, no water: the depletion stands.
    expect(balance.zones[0]!.depletion).toBeCloseTo(seventh.zones[0]!.depletion, 1);
  });

  it("gives a crop area's season its cells, and the whole circle's season the rest", async () => {
    const west: GeoJson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { kind: 'crop', name: 'West' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [17.19, 52.29],
                [17.2, 52.29],
                [17.2, 52.31],
                [17.19, 52.31],
                [17.19, 52.29],
              ],
            ],
          },
        },
      ],
    };
    await t.database.db.update(sprinklers).set({ areaMap: west }).where(eq(sprinklers.id, sprinklerId));
    const whole = await balanceOf(farmer, '07.06.2026');
    const response = await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, [
      { name: 'Potato West', polygon: 'West', crop: 'potato', emergence: '03.06.2026', soil: 'sand' },
      {
        name: 'Test crop 2026',
        polygon: null,
        crop: { kc: [KC_INITIAL, 1.1, 0.6], stages: [...STAGES], rootDepth: [...ROOT_DEPTH], p: P },
        emergence: '01.06.2026',
        soil: { fieldCapacity: FIELD_CAPACITY, wiltingPoint: WILTING_POINT },
      },
    ]);
    expect(response.status).toBe(200);
    const split = await balanceOf(farmer, '07.06.2026');
    expect(split.zones.map((zone) => zone.name)).toEqual(['Potato West', 'Test crop 2026']);
    expect(split.cells).toHaveLength(whole.cells.length);
    const westCells = split.cells.filter(([, lng]) => lng < CENTRE.lng);
    // Sand's TAW (Table 19: 0.12 − 0.045) on the potato's roots is not the loam's of the custom crop.
    expect(new Set(westCells.map(([, , , cellTaw]) => cellTaw)).size).toBe(1);
    expect(westCells[0]![3]).toBeCloseTo(split.zones[0]!.taw, 1);
    expect(split.zones[0]!.taw).not.toBeCloseTo(taw(DAYS), 0);
    // The east keeps the custom crop's numbers.
    for (const [, lng, , cellTaw] of split.cells) if (lng > CENTRE.lng) expect(cellTaw).toBeCloseTo(taw(DAYS), 1);
    await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, [
      {
        name: 'Test crop 2026',
        polygon: null,
        crop: { kc: [KC_INITIAL, 1.1, 0.6], stages: [...STAGES], rootDepth: [...ROOT_DEPTH], p: P },
        emergence: '01.06.2026',
        soil: { fieldCapacity: FIELD_CAPACITY, wiltingPoint: WILTING_POINT },
      },
    ]);
  });

  it('says why there is nothing: no season on the day, or no station near the machine', async () => {
    const before = await balanceOf(farmer, '31.05.2026');
    expect(before).toMatchObject({ reason: 'no_season', zones: [], sectors: [], cells: [] });
    // The last complete day by default: this season ended in August.
    expect((await balanceOf(farmer)).reason).toBe('no_season');

    const far = await buildSprinkler(t, { lat: '50.000000', lng: '20.000000', armLength: 100 });
    const admin = await t.adminClient();
    const seasons = await admin.put(`/api/sprinkler/${far.id}/crop-seasons/`, [
      { name: 'Far', polygon: null, crop: 'potato', emergence: '01.06.2026', soil: 'loam' },
    ]);
    expect(seasons.status).toBe(200);
    const response = await admin.get(`/api/sprinkler/${far.id}/water-balance/`, { query: { date: '07.06.2026' } });
    expect(response.status).toBe(200);
    expect(WaterBalanceSchema.parse(response.body)).toMatchObject({ reason: 'no_weather_station', zones: [] });
  });

  it('answers a watcher, and 404 to a user the machine is not granted to', async () => {
    const balance = await balanceOf(watcher, '07.06.2026');
    expect(balance.zones).toHaveLength(1);
    const response = await stranger.get(`/api/sprinkler/${sprinklerId}/water-balance/`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'sprinkler_not_found' });
  });

  it('refuses a date that is not a day', async () => {
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, {
      query: { date: '31.02.2026' },
    });
    expect(response.status).toBe(400);
  });
});
