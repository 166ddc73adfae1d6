import { ApplicationDepthSchema, LogListResponseSchema, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MotionReport,
  hoursPerCircleFromFlow,
  learnDepthAtFullSpeed,
  percentTimerPlan,
} from '../../src/modules/application-depth/application-depth';
import { ApplicationDepthService } from '../../src/modules/application-depth/application-depth.service';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

/** A machine turning at `degreesPerSecond` at speed setting `speed`, a report every 5 s for an hour. */
function turning(speed: number, degreesPerSecond: number, flow: number, distance: number, from = 0): MotionReport[] {
  return Array.from({ length: 721 }, (_, index) => ({
    ts: from + index * 5000,
    status: 'front',
    angle: (350 + index * 5 * degreesPerSecond) % 360,
    distance,
    speed,
    flow,
  }));
}

describe("a machine's depth at 100 %, learned from its reports", () => {
  it('is the water pumped over the area swept at 100 %', () => {
    // 0.01°/s at 50 % is 0.02°/s = 72°/h at 100 %: a turn in 5 h. 72 m³/h × 5 h over a 150 m
    // circle (70,685.8 m²) is 5.093 mm. The angle crosses north on the way: the short way round.
    const { depth, pairs, hoursPerCircle } = learnDepthAtFullSpeed(turning(50, 0.01, 72, 150));
    expect(pairs).toBe(720);
    expect(depth).toBeCloseTo(5.093, 3);
    expect(hoursPerCircle).toBeCloseTo(5, 6);
    // The same from the depth and the flow: 5.093 mm over 70,685.8 m² is 360 m³, 5 h at 72 m³/h.
    expect(hoursPerCircleFromFlow(depth!, 150, 72)).toBeCloseTo(5, 6);
    expect(hoursPerCircleFromFlow(depth!, 150, 0)).toBeNull();
    // Another setting of the same machine gives the same depth at 100 %: 0.005°/s at 25 %.
    expect(learnDepthAtFullSpeed(turning(25, 0.005, 72, 150)).depth).toBeCloseTo(5.093, 3);
  });

  it('leaves out stops, dry runs, changes of setting and gaps, and learns nothing from too little', () => {
    const reports = turning(50, 0.01, 72, 150);
    const stopped = reports.map((report, index) => (index % 2 === 0 ? { ...report, status: 'stop' } : report));
    expect(learnDepthAtFullSpeed(stopped)).toEqual({ depth: null, hoursPerCircle: null, pairs: 0 });
    expect(learnDepthAtFullSpeed(reports.map((report) => ({ ...report, flow: 0 }))).pairs).toBe(0);
    // Reports 12.5 minutes apart: a gap, as the watermap takes it; 5 minutes apart still count.
    const gaps = reports.filter((_, index) => index % 150 === 0);
    expect(learnDepthAtFullSpeed(gaps).pairs).toBe(0);
    expect(learnDepthAtFullSpeed(reports.filter((_, index) => index % 60 === 0)).pairs).toBe(12);
    expect(learnDepthAtFullSpeed(reports.slice(0, 15))).toEqual({ depth: null, hoursPerCircle: null, pairs: 14 });
    const settings = reports.map((report, index) => ({ ...report, speed: index % 2 === 0 ? 50 : 60 }));
    expect(learnDepthAtFullSpeed(settings).pairs).toBe(0);
  });
});

describe('the percent timer for a gross dose', () => {
  it('is inversely proportional to the dose, held to 1–100 %', () => {
    // 4 mm at 100 %: 25 mm at 16 %.
    expect(percentTimerPlan(25, 4)).toEqual({ percentTimer: 16, passes: 1 });
    // Less than 4 mm cannot be given: 100 %, one pass (4 mm).
    expect(percentTimerPlan(3, 4)).toEqual({ percentTimer: 100, passes: 1 });
    // 400 mm at 1 % is the most in one pass: 500 mm in two passes of 250 mm at 1.6 %.
    expect(percentTimerPlan(400, 4)).toEqual({ percentTimer: 1, passes: 1 });
    const split = percentTimerPlan(500, 4);
    expect(split.passes).toBe(2);
    expect(split.percentTimer).toBeCloseTo(1.6, 10);
  });
});

describe("a machine's depth at 100 %, kept per machine", () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('is looked at again within minutes while too few reports gave none, and kept an hour once learned', async () => {
    t = await createTestApp();
    const pivot = await buildSprinkler(t, { armLength: 150 });
    let now = Date.now();
    const store = (reports: MotionReport[]) =>
      t.database.db.insert(telemetry).values(
        reports.map((report) => ({
          ...report,
          machineId: pivot.internalId,
          ts: new Date(report.ts),
          status: 'front' as const,
          pressure: 2.5,
        })),
      );
    let reads = 0;
    const service = new ApplicationDepthService({
      db: t.database.db,
      sprinklers: t.app.sprinklers,
      logs: t.app.logs,
      reports: {
        during: (...args) => {
          reads += 1;
          return t.app.storedReports.during(...args);
        },
      },
      now: () => now,
    });
    // A machine that has just begun watering: a minute of reports teaches nothing yet.
    const watering = turning(50, 0.01, 72, 150, now - 60_000).slice(0, 361);
    await store(watering.slice(0, 13));
    expect((await service.of(pivot)).depthAtFullSpeed).toBeNull();
    // Half an hour on, it has: asked again after 5 minutes, the depth is there.
    await store(watering.slice(13));
    now += 4 * 60_000;
    expect((await service.of(pivot)).depthAtFullSpeed).toBeNull();
    now += 60_000 + 30 * 60_000;
    expect((await service.of(pivot)).depthAtFullSpeed).toBeCloseTo(5.093, 3);
    // Once learned, it is kept for the hour.
    const readsWhenLearned = reads;
    now += 50 * 60_000;
    expect((await service.of(pivot)).depthAtFullSpeed).toBeCloseTo(5.093, 3);
    expect(reads).toBe(readsWhenLearned);
  });

  it('is learned from the last pass, even one made weeks ago, and from passes split over days', async () => {
    const now = Date.now();
    const service = new ApplicationDepthService({
      db: t.database.db,
      sprinklers: t.app.sprinklers,
      logs: t.app.logs,
      reports: t.app.storedReports,
      now: () => now,
    });
    const store = async (machineId: string, reports: MotionReport[]) =>
      t.database.db.insert(telemetry).values(
        reports.map((report) => ({
          ...report,
          machineId,
          ts: new Date(report.ts),
          status: 'front' as const,
          pressure: 2.5,
        })),
      );
    // Its last half hour of watering 40 days ago, then weeks at rest (rain): its pace is still its own.
    const idle = await buildSprinkler(t, { armLength: 150 });
    await store(idle.internalId, turning(50, 0.01, 72, 150, now - 40 * 86_400_000).slice(0, 361));
    const pace = await service.pace(idle);
    expect(pace.depthAtFullSpeed).toBeCloseTo(5.093, 3);
    expect(pace.hoursPerCircle).toBeCloseTo(5, 6);
    // Six minutes today and six 5 days ago: neither teaches alone, together they do.
    const split = await buildSprinkler(t, { armLength: 150 });
    const sixMinutes = (from: number) => turning(50, 0.01, 72, 150, from).slice(0, 73);
    await store(split.internalId, [...sixMinutes(now - 5 * 86_400_000), ...sixMinutes(now - 3_600_000)]);
    expect((await service.of(split)).depthAtFullSpeed).toBeCloseTo(5.093, 3);
    // Beyond the year it looks back over, nothing: 400 days ago.
    const forgotten = await buildSprinkler(t, { armLength: 150 });
    await store(forgotten.internalId, turning(50, 0.01, 72, 150, now - 400 * 86_400_000).slice(0, 361));
    expect((await service.of(forgotten)).depthAtFullSpeed).toBeNull();
  });
});

describe('the depth at 100 % through the API', () => {
  let t: TestApp;
  let admin: ApiClient;
  let farmer: ApiClient;
  let sprinklerId: number;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 150 });
    sprinklerId = pivot.id;
    admin = await t.adminClient();
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id, 'control');
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    // Half an hour of its own reports: 0.01°/s at 50 %, 72 m³/h, a 150 m arm (5.093 mm at 100 %).
    const now = Date.now();
    await t.database.db.insert(telemetry).values(
      turning(50, 0.01, 72, 150, now - 3_600_000)
        .slice(0, 361)
        .map((report) => ({
          ...report,
          machineId: pivot.internalId,
          ts: new Date(report.ts),
          status: 'front' as const,
          pressure: 2.5,
        })),
    );
    // A week of dry, warm days and a season, so that water is due.
    const readings = [];
    for (let day = 1; day <= 7; day += 1)
      for (let hour = 0; hour < 24; hour += 1) {
        const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
        readings.push({
          stationId: 'WS-DEPTH',
          machineId: null,
          ts: new Date(Date.UTC(2026, 5, day) - 2 * 3_600_000 + hour * 3_600_000 + 1_800_000),
          lat: 52.301,
          lng: 17.2,
          temperature: 15 + 14 * daylight,
          humidity: 80 - 50 * daylight,
          rain: 0,
          wind: 2,
          solarRadiation: 800 * daylight,
        });
      }
    await t.database.db.insert(weatherReadings).values(readings);
    const put = await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, [
      {
        name: 'Depth 2026',
        polygon: null,
        crop: { kc: [0.9, 1.1, 0.6], stages: [10, 20, 30, 20], rootDepth: [0.3, 0.6], p: 0.5 },
        emergence: '01.06.2026',
        soil: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
      },
    ]);
    expect(put.status).toBe(200);
  });
  afterAll(() => t.close());

  it('is learned, set by an administrator alone, and gives the advice its percent timer', async () => {
    const learned = ApplicationDepthSchema.parse(
      (await farmer.get(`/api/sprinkler/${sprinklerId}/application-depth/`)).body,
    );
    expect(learned).toMatchObject({ setting: null, learnedFrom: 360 });
    expect(learned.learned).toBeCloseTo(5.093, 3);
    expect(learned.depthAtFullSpeed).toBe(learned.learned);

    let balance = WaterBalanceSchema.parse(
      (await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, { query: { date: '07.06.2026' } })).body,
    );
    expect(balance.applicationDepth).toEqual({ depthAtFullSpeed: 5.09, source: 'reports' });
    const [zone] = balance.zones;
    expect(zone!.grossDose).not.toBeNull();
    expect(zone!.percentTimer).toBeCloseTo(Math.min(100, (100 * learned.learned!) / zone!.grossDose!), 1);

    const refused = await farmer.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, { depthAtFullSpeed: 6 });
    expect(refused.status).toBe(403);
    const set = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, { depthAtFullSpeed: 2.5 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ setting: 2.5, depthAtFullSpeed: 2.5 });
    balance = WaterBalanceSchema.parse(
      (await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, { query: { date: '07.06.2026' } })).body,
    );
    expect(balance.applicationDepth).toEqual({ depthAtFullSpeed: 2.5, source: 'setting' });
    // Hand computation: 2.5 mm at 100 %, so the gross dose at 250 / dose %.
    expect(balance.zones[0]!.percentTimer).toBeCloseTo(250 / balance.zones[0]!.grossDose!, 1);
    expect(balance.zones[0]!.passes).toBe(1);

    const typo = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, { depthAtFullSpeed: -1 });
    expect(typo.status).toBe(400);
    const back = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, { depthAtFullSpeed: null });
    expect(back.body).toMatchObject({ setting: null });
  });

  it('takes the hours a circle at 100 % from an administrator, kept while the depth changes, and learns them again', async () => {
    const learned = ApplicationDepthSchema.parse(
      (await farmer.get(`/api/sprinkler/${sprinklerId}/application-depth/`)).body,
    );
    // 0.01°/s at 50 %: a circle in 5 h at 100 %.
    expect(learned.hoursPerCircleSetting).toBeNull();
    expect(learned.hoursPerCircleLearned).toBeCloseTo(5, 6);
    expect(learned.hoursPerCircle).toBe(learned.hoursPerCircleLearned);

    const set = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, {
      depthAtFullSpeed: null,
      hoursPerCircle: 20,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ setting: null, hoursPerCircleSetting: 20, hoursPerCircle: 20 });
    // A depth set without the hours leaves them as they were.
    const depthOnly = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, { depthAtFullSpeed: 4 });
    expect(depthOnly.body).toMatchObject({ setting: 4, hoursPerCircleSetting: 20, hoursPerCircle: 20 });
    expect(
      (
        await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, {
          depthAtFullSpeed: 4,
          hoursPerCircle: 0,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, {
          depthAtFullSpeed: 4,
          hoursPerCircle: 201,
        })
      ).status,
    ).toBe(400);

    const back = await admin.patch(`/api/sprinkler/${sprinklerId}/application-depth/`, {
      depthAtFullSpeed: null,
      hoursPerCircle: null,
    });
    expect(back.body).toMatchObject({ setting: null, hoursPerCircleSetting: null });
    expect(ApplicationDepthSchema.parse(back.body).hoursPerCircle).toBeCloseTo(5, 6);
  });

  it('writes each change to the activity log, which the machine’s users read', async () => {
    // The tests above set 2.5 mm, went back to learning, set 20 h, then 4 mm, then both back to
    // learning; the refused and invalid calls wrote nothing, and the hours kept wrote nothing.
    const log = LogListResponseSchema.parse((await farmer.get('/api/logs/')).body);
    const changes = (eventType: string) =>
      log.data.filter((entry) => entry.eventType === eventType).map((entry) => entry.event);
    expect(changes('sprinkler_application_depth_updated')).toEqual(['', '4', '', '2.5']);
    expect(changes('sprinkler_hours_per_circle_updated')).toEqual(['', '20']);
    expect(
      log.data.find((entry) => entry.eventType === 'sprinkler_hours_per_circle_updated')!.sprinklerInternalId,
    ).not.toBeNull();
  });
});
