import {
  type AutopilotPlan,
  AutopilotPlanSchema,
  LogListResponseSchema,
  ProgramFromAdviceSchema,
} from '@pivot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { halvesField } from '../support/halves-field';
import { useTestApp } from '../support/test-app';
import { warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 100;
const HOUR = 60 * 60_000;
const field = halvesField(CENTRE, ARM);
/** A well that feeds one machine at a time; nothing else holds a pass back (no station here). */
const RULES = { wind: null, frost: null, rainSkip: null, pumpGroup: { id: 'Well 1', maxAtOnce: 1 } };

/**
 * The plan of two machines on one well (docs/autopilot.md, "The plan"), through the API: each is
 * planned with the other, and a reader granted one machine is not told the other's name.
 */
describe("the autopilot's plan of machines sharing a pump", () => {
  const t = useTestApp({ TIME_ZONE }, { signInAdmin: true });
  let farmer: ApiClient;
  let onlySecond: ApiClient;
  const machines: { id: number; name: string }[] = [];
  const today = localDate(TIME_ZONE, Date.now());

  beforeAll(async () => {
    const owner = await t.signedInUser({ language: 'en' });
    farmer = owner.client;
    const other = await t.signedInUser({ language: 'en' });
    onlySecond = other.client;
    for (let day = 6; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay('WS-WELL', addDays(today, -day), TIME_ZONE));
    }
    // Two machines alike, their East halves due at once, online and at rest at 10°, a circle in 20 h at 100 %.
    for (const name of ['Well pivot A', 'Well pivot B']) {
      const pivot = await buildSprinkler(t, {
        name,
        lat: String(CENTRE.lat),
        lng: String(CENTRE.lng),
        armLength: ARM,
        areaMap: field.areaMap,
      });
      machines.push({ id: pivot.id, name });
      await grant(t, pivot.id, owner.user.id, 'control');
      await t.database.db.insert(machineState).values({
        machineId: pivot.internalId,
        online: true,
        programName: 'Połówki',
        programData: field.program,
        status: 'stop',
        angle: 10,
        flow: 0,
      });
      const pace = await t.admin.patch(`/api/sprinkler/${pivot.id}/application-depth/`, {
        depthAtFullSpeed: 5,
        hoursPerCircle: 20,
      });
      expect(pace.status, JSON.stringify(pace.body)).toBe(200);
      const seasons = await farmer.put(`/api/sprinkler/${pivot.id}/crop-seasons/`, field.seasons(today));
      expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
      const saved = await farmer.put(`/api/sprinkler/${pivot.id}/autopilot/`, { mode: 'suggest', rules: RULES });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    await grant(t, machines[1]!.id, other.user.id, 'watch');
  });

  const plan = async (client: ApiClient, id: number): Promise<AutopilotPlan> => {
    const response = await client.get(`/api/sprinkler/${id}/autopilot/plan/`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return AutopilotPlanSchema.parse(response.body);
  };
  const revolutionHours = async (id: number) => {
    const response = await farmer.get(`/api/sprinkler/${id}/program-from-advice/`);
    return ProgramFromAdviceSchema.parse(response.body).revolutionHours!;
  };

  it('plans the two so that the well never feeds both at once, the second waiting for the first', async () => {
    const [a, b] = machines as [(typeof machines)[0], (typeof machines)[0]];
    const [planA, planB] = [await plan(farmer, a.id), await plan(farmer, b.id)];
    expect(planA.reason).toBeNull();
    expect(planB.reason).toBeNull();
    // Both due alike: the first added (the lower id) first; the other is queued behind it, by name.
    expect(planA.now.kind).toBe('start');
    expect(planB.now).toEqual({
      kind: 'queue_pump',
      text: 'Queued: the pump Well 1 feeds at most 1 machine at once; ahead: Well pivot A',
    });
    const [firstA] = planA.passes;
    const [firstB] = planB.passes;
    expect(firstA!.queued).toBeNull();
    expect(firstB!.queued).toEqual({ wouldStartAt: expect.any(Number), behind: ['Well pivot A'], unnamed: 0 });
    expect(firstB!.queued!.wouldStartAt).toBeLessThan(firstA!.at + HOUR);
    const hours = new Map([
      [a.id, await revolutionHours(a.id)],
      [b.id, await revolutionHours(b.id)],
    ]);
    expect(hours.get(a.id)).toBeGreaterThan(0);
    expect(firstB!.at).toBeGreaterThanOrEqual(firstA!.at + hours.get(a.id)! * HOUR - HOUR);
    // Over the whole week, at most one pass holds the well at any instant.
    const held = [
      ...planA.passes.map((pass) => ({ from: pass.at, until: pass.at + hours.get(a.id)! * HOUR })),
      ...planB.passes.map((pass) => ({ from: pass.at, until: pass.at + hours.get(b.id)! * HOUR })),
    ];
    expect(held.length).toBeGreaterThan(2);
    // The two plans are made a moment apart: a minute's slack at each end.
    for (const pass of held) {
      const atOnce = held.filter((other) => other.from < pass.until - 60_000 && pass.from < other.until - 60_000);
      expect(atOnce, JSON.stringify(held)).toHaveLength(1);
    }
  });

  it('tells a reader granted only the second machine that it waits for another machine on this pump, unnamed', async () => {
    const [a, b] = machines as [(typeof machines)[0], (typeof machines)[0]];
    const response = await onlySecond.get(`/api/sprinkler/${b.id}/autopilot/plan/`);
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toContain(a.name);
    const seen = AutopilotPlanSchema.parse(response.body);
    expect(seen.now.text).toBe(
      'Queued: the pump Well 1 feeds at most 1 machine at once; ahead: another machine on this pump',
    );
    expect(seen.passes[0]!.queued).toEqual({ wouldStartAt: expect.any(Number), behind: [], unnamed: 1 });
    // In Polish too; and the pump still holds its pass back as it does for a reader who sees both.
    const polish = AutopilotPlanSchema.parse(
      (await onlySecond.get(`/api/sprinkler/${b.id}/autopilot/plan/`, { headers: { 'accept-language': 'pl' } })).body,
    );
    expect(polish.now.text).toBe(
      'W kolejce: pompa Well 1 zasila najwyżej 1 maszynę naraz; wcześniej: inna maszyna na tej pompie',
    );
    const full = await plan(farmer, b.id);
    const fromNow = (told: AutopilotPlan) => told.passes.map((pass) => pass.at - told.decidedAt);
    expect(fromNow(seen)).toEqual(fromNow(full));
    expect((await onlySecond.get(`/api/sprinkler/${a.id}/autopilot/plan/`)).status).toBe(404);
  });

  it('tells the same reader the queueing in the activity log without the other machine, and the farmer with it', async () => {
    const [a, b] = machines as [(typeof machines)[0], (typeof machines)[0]];
    await t.app.autopilotWatch.lookOnce(Date.now());
    const queued = async (client: ApiClient) =>
      LogListResponseSchema.parse((await client.get('/api/logs/', { query: { pageSize: 100 } })).body).data.find(
        (entry) => entry.eventType === 'sprinkler_autopilot_decision' && entry.sprinklerName === b.name,
      )?.event;
    expect(await queued(onlySecond)).toBe(
      'Queued: the pump Well 1 feeds at most 1 machine at once; ahead: another machine on this pump',
    );
    expect(await queued(farmer)).toBe(`Queued: the pump Well 1 feeds at most 1 machine at once; ahead: ${a.name}`);
  });
});
