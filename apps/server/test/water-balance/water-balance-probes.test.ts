import { METRES_PER_DEGREE, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { mildDryDay } from '../support/weather-days';

const HOUR_MS = 60 * 60 * 1000;
/** June in Warsaw is UTC+2: local midnight of day d of June 2026. */
const localMidnight = (day: number) => Date.UTC(2026, 5, day) - 2 * HOUR_MS;
const CENTRE = { lat: 52.3, lng: 17.2 };
const DAYS = 7;

// A custom crop on a loam: roots 0.2 → 0.6 m through the first 30 days (Annex 8, Eq. 8-3).
const STAGES = [10, 20, 30, 20] as const;
const ROOT_DEPTH = [0.2, 0.6] as const;
const FIELD_CAPACITY = 0.25;
const WILTING_POINT = 0.12;
const rootDepth = (day: number) =>
  Math.min(ROOT_DEPTH[1], ROOT_DEPTH[0] + ((ROOT_DEPTH[1] - ROOT_DEPTH[0]) * (day - 1)) / (STAGES[0] + STAGES[1] - 1));
const taw = (day: number) => 1000 * (FIELD_CAPACITY - WILTING_POINT) * rootDepth(day);

/** A position `east` and `north` metres from a machine's centre (the first machine's by default). */
function offsetFromCentre(east: number, north: number, centre = CENTRE) {
  return {
    lat: centre.lat + north / METRES_PER_DEGREE,
    lng: centre.lng + east / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180)),
  };
}

describe('the water balance corrected by soil probes', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let sprinklerId: number;
  let machineId: string;

  /** A machine with the probed crop's season, granted to the farmer; its broker ID. */
  async function probedMachine(
    centre: { lat: number; lng: number },
    soil = { fieldCapacity: FIELD_CAPACITY, wiltingPoint: WILTING_POINT },
  ) {
    const pivot = await buildSprinkler(t, { lat: centre.lat.toFixed(6), lng: centre.lng.toFixed(6), armLength: 150 });
    await grant(t, pivot.id, farmerId, 'control');
    const seasons = await farmer.put(`/api/sprinkler/${pivot.id}/crop-seasons/`, [
      {
        name: 'Probed crop',
        polygon: null,
        crop: { kc: [0.5, 1.1, 0.6], stages: [...STAGES], rootDepth: [...ROOT_DEPTH], p: 0.5 },
        emergence: '01.06.2026',
        soil,
      },
    ]);
    expect(seasons.status).toBe(200);
    return pivot;
  }
  let farmerId: number;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const user = await t.buildUser();
    farmerId = user.id;
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    for (let day = 1; day <= DAYS; day += 1)
      await t.database.db.insert(weatherReadings).values(mildDryDay('WS-PROBES', localMidnight(day), CENTRE));
    const pivot = await probedMachine(CENTRE);
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
  });
  afterAll(() => t.close());

  async function balanceOn(date: string, machine = sprinklerId) {
    const response = await farmer.get(`/api/sprinkler/${machine}/water-balance/`, { query: { date } });
    expect(response.status).toBe(200);
    return WaterBalanceSchema.parse(response.body);
  }

  /** A reading as the machine's controller reports it, through the weather module. */
  async function probeReads(
    sensor: string,
    ts: number,
    position: { lat: number; lng: number },
    moisture: number,
    machine = machineId,
  ) {
    await t.app.weather.recordSoil(
      { machineId: machine, deviceId: sensor },
      { v: 1, ts, lat: position.lat, lng: position.lng, moisture, depth: 30 },
    );
  }

  it("moves the zone's cells by a fresh probe's offset; a stale or outside probe is listed, not used", async () => {
    // No water and no rain: every cell holds the same depletion. This answer keeps the model's state.
    const model = await balanceOn('07.06.2026');
    expect(model.probes).toEqual([]);
    const modelDepletion = model.zones[0]!.depletion;
    expect(modelDepletion).toBeGreaterThan(5);
    expect(model.cells.every(([, , depletion]) => Math.abs(depletion - modelDepletion) < 0.06)).toBe(true);

    const inside = offsetFromCentre(42, -17);
    // Fresh: 7 June 20:00 local, 15 %; a later reading of 8 June is not the 7th's.
    await probeReads('PROBE-FRESH', localMidnight(7) + 20 * HOUR_MS, inside, 15);
    await probeReads('PROBE-FRESH', localMidnight(8) + 10 * HOUR_MS, inside, 24);
    // Stale: 6 June 10:00 local, 38 h before the end of the 7th (and fresh at the end of the 6th).
    await probeReads('PROBE-STALE', localMidnight(6) + 10 * HOUR_MS, offsetFromCentre(-60, 30), 24);
    // Within the sensors' box, beyond the arm: no zone's cell.
    await probeReads('PROBE-OUT', localMidnight(7) + 20 * HOUR_MS, offsetFromCentre(140, 140), 20);

    const corrected = await balanceOn('07.06.2026');
    // Eq. 87 by hand: 1000 × (0.25 − 0.15) × Zr on 7 June.
    const probeDepletion = 1000 * (FIELD_CAPACITY - 0.15) * rootDepth(DAYS);
    expect(probeDepletion).toBeLessThan(taw(DAYS));
    // The 6th ended where its probe put it (24 %: 1000 × 0.01 × Zr), under RAW: the 7th adds its whole ETc.
    const modelOfDay = 1000 * (FIELD_CAPACITY - 0.24) * rootDepth(DAYS - 1) + model.zones[0]!.etc;
    const offset = probeDepletion - modelOfDay;
    expect(corrected.probes.map((probe) => probe.id)).toEqual(['PROBE-FRESH', 'PROBE-OUT', 'PROBE-STALE']);
    const [fresh, out, stale] = corrected.probes;
    expect(fresh).toMatchObject({
      zone: 'Probed crop',
      readAt: localMidnight(7) + 20 * HOUR_MS,
      moisture: 15,
      used: true,
    });
    expect(fresh!.position[0]).toBeCloseTo(inside.lng, 9);
    expect(fresh!.position[1]).toBeCloseTo(inside.lat, 9);
    expect(fresh!.probeDepletion).toBeCloseTo(probeDepletion, 2);
    // The model's depletion is the 7th's stepped from the 6th's corrected end.
    expect(fresh!.modelDepletion).toBeCloseTo(modelOfDay, 1);
    expect(fresh!.offset).toBeCloseTo(offset, 1);
    expect(out).toMatchObject({ zone: null, used: false, reason: 'outside', offset: null });
    expect(stale).toMatchObject({ zone: 'Probed crop', used: false, reason: 'stale', moisture: 24 });

    // The zone's mean (and every cell) moved by the fresh probe's offset only.
    const zone = corrected.zones[0]!;
    expect(zone.depletion).toBeCloseTo(modelOfDay + offset, 1);
    expect(zone.depletion).toBeCloseTo(probeDepletion, 1);
    expect(corrected.cells.every(([, , depletion]) => Math.abs(depletion - probeDepletion) < 0.06)).toBe(true);
    // A drier soil is due sooner, with a larger dose.
    expect(zone.netDose ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(model.zones[0]!.netDose ?? 0);

    // Asked again (from the kept state): the same answer, the correction not added twice.
    const again = await balanceOn('07.06.2026');
    expect(again.zones).toEqual(corrected.zones);
    expect(again.probes).toEqual(corrected.probes);
  });

  it('starts the season where a probe read in the 24 h before emergence puts it, not at field capacity', async () => {
    // A second machine 1.1 km north, apart from the first's probes, on the same station.
    const centre = { lat: 52.31, lng: 17.2 };
    const pivot = await probedMachine(centre);
    // From field capacity; this answer keeps the model's state at 3 June.
    const fromFieldCapacity = await balanceOn('04.06.2026', pivot.id);
    const modelDepletion = fromFieldCapacity.zones[0]!.depletion;
    expect(modelDepletion).toBeGreaterThan(2);

    // 31 May 22:00 local, 2 h before the season's first day: 23 %. And 30 May 12:00, 36 h before: too early.
    await probeReads(
      'PROBE-START',
      localMidnight(1) - 2 * HOUR_MS,
      offsetFromCentre(25, 35, centre),
      23,
      pivot.internalId,
    );
    await probeReads(
      'PROBE-EARLY',
      localMidnight(1) - 36 * HOUR_MS,
      offsetFromCentre(-45, 5, centre),
      5,
      pivot.internalId,
    );
    const fromProbe = await balanceOn('04.06.2026', pivot.id);
    // Eq. 87 on day 1 by hand: 1000 × (0.25 − 0.23) × 0.2 m = 4 mm, under TAW 26 mm.
    const start = 1000 * (FIELD_CAPACITY - 0.23) * ROOT_DEPTH[0];
    expect(start).toBeCloseTo(4, 9);
    // Ks stays 1 (below RAW) and no water came: every day adds the same ETc, so the start carries through.
    const zone = fromProbe.zones[0]!;
    expect(zone.depletion).toBeLessThan(zone.raw);
    expect(zone.ks).toBe(1);
    expect(zone.depletion).toBeCloseTo(modelDepletion + start, 2);
    expect(fromProbe.cells.every(([, , depletion]) => Math.abs(depletion - (modelDepletion + start)) < 0.06)).toBe(
      true,
    );
    // The readings are days old by 4 June: listed as stale, not a correction of the day.
    expect(fromProbe.probes.map((probe) => [probe.id, probe.used])).toEqual([
      ['PROBE-EARLY', false],
      ['PROBE-START', false],
    ]);
  });

  it("carries each day's correction into the next day: the model does not drift, and Ks is the corrected depletion's", async () => {
    // A soil that holds little (θFC 20 %, θWP 15 %): by 7 June the model alone is past RAW.
    const centre = { lat: 52.32, lng: 17.2 };
    const soil = { fieldCapacity: 0.2, wiltingPoint: 0.15 };
    const pivot = await probedMachine(centre, soil);
    const alone = (await balanceOn('07.06.2026', pivot.id)).zones[0]!;
    expect(alone.depletion).toBeGreaterThan(alone.raw);
    expect(alone.ks).toBeLessThan(1);

    // A probe reads 19.5 % every evening: the soil stays near field capacity.
    const position = offsetFromCentre(30, 20, centre);
    for (let day = 1; day <= DAYS; day += 1)
      await probeReads('PROBE-DAILY', localMidnight(day) + 20 * HOUR_MS, position, 19.5, pivot.internalId);
    const answer = await balanceOn('07.06.2026', pivot.id);
    const zone = answer.zones[0]!;
    const [probe] = answer.probes;
    // Eq. 87 by hand on the 6th and the 7th: 1000 × (0.20 − 0.195) × Zr.
    const probeOf = (day: number) => 1000 * (soil.fieldCapacity - 0.195) * rootDepth(day);
    expect(zone.depletion).toBeCloseTo(probeOf(DAYS), 2);
    // The 7th started from the 6th's corrected depletion, under RAW: Ks 1 (Eq. 84), the whole ETc taken.
    expect(zone.ks).toBe(1);
    expect(probe!.modelDepletion).toBeCloseTo(probeOf(DAYS - 1) + zone.etc, 1);
    expect(probe!.offset).toBeCloseTo(probeOf(DAYS) - probeOf(DAYS - 1) - zone.etc, 1);
    // A day before, asked on its own: its own probe's depletion.
    expect((await balanceOn('06.06.2026', pivot.id)).zones[0]!.depletion).toBeCloseTo(probeOf(DAYS - 1), 2);
  });
});
