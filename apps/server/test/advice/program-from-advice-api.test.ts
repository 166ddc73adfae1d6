import { PASS_NET_DEPTH_LIMIT_MM, ProgramFromAdviceSchema, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { halvesField } from '../support/halves-field';
import { type TestApp, createTestApp } from '../support/test-app';
import { warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 100;

const field = halvesField(CENTRE, ARM);

describe('GET /api/sprinkler/{id}/program-from-advice/', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let id: number;
  let internalId: string;
  const today = localDate(TIME_ZONE, Date.now());
  const { program } = field;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    const pivot = await buildSprinkler(t, {
      lat: '52.300000',
      lng: '17.200000',
      armLength: ARM,
      areaMap: field.areaMap,
    });
    id = pivot.id;
    internalId = pivot.internalId;
    const control = await t.signedInUser();
    farmer = control.client;
    await grant(t, id, control.user.id);
    const watching = await t.signedInUser();
    watcher = watching.client;
    await grant(t, id, watching.user.id, 'watch');
    stranger = (await t.signedInUser()).client;
    for (let day = 6; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay('WS-SAFE', addDays(today, -day), TIME_ZONE));
    }
  });
  afterAll(() => t.close());

  const read = async (client: ApiClient) => {
    const response = await client.get(`/api/sprinkler/${id}/program-from-advice/`);
    expect(response.status).toBe(200);
    return ProgramFromAdviceSchema.parse(response.body);
  };

  it('is read by whoever sees the machine, and says why there is no program until one can be made', async () => {
    expect((await stranger.get(`/api/sprinkler/${id}/program-from-advice/`)).status).toBe(404);
    expect(await read(watcher)).toMatchObject({ reason: 'no_season', sectors: [], programData: null });

    // Shallow roots on sand: due at once. Roots 3 m deep on loam: nothing due this season.
    const put = await farmer.put(`/api/sprinkler/${id}/crop-seasons/`, field.seasons(today));
    expect(put.status).toBe(200);
    expect((await read(farmer)).reason).toBe('no_program');

    // The machine runs the two halves, stopped at 10°, pumping nothing: its pace is unknown.
    await t.database.db.insert(machineState).values({
      machineId: internalId,
      programName: 'Halves',
      programData: program,
      status: 'stop',
      angle: 10,
      flow: 0,
    });
    expect((await read(farmer)).reason).toBe('pace_unknown');
  });

  it('waters the half due when the arm gets there, and passes dry over the other', async () => {
    const admin = await t.adminClient();
    expect((await admin.patch(`/api/sprinkler/${id}/application-depth/`, { depthAtFullSpeed: 5 })).status).toBe(200);
    // Watering now at 7.54 m³/h: a circle of 100 m at 5 mm (157.1 m³) in about 20.8 h at 100 %.
    await t.database.db.update(machineState).set({ status: 'front', flow: 7.54 });
    const answer = await read(watcher);
    expect(answer.reason).toBeNull();
    expect(answer.marginHours).toBe(24);
    const balance = WaterBalanceSchema.parse((await farmer.get(`/api/sprinkler/${id}/water-balance/`)).body);
    const east = balance.sectors.find((sector) => sector.name === 'Wschód')!;
    expect(balance.sectors.find((sector) => sector.name === 'Zachód')!.nextIrrigation).toBeNull();
    // The arm is in the east half: there at once, today's expected depletion refilled (one pass's share of it).
    const expected = east.expectedDepletion[0]!;
    const eastNet = Math.min(expected, PASS_NET_DEPTH_LIMIT_MM);
    const eastDose = Math.round(((eastNet * east.grossDose!) / east.netDose!) * 10) / 10;
    expect(eastDose).toBeGreaterThan(0);
    expect(answer.sectors).toEqual([
      {
        name: 'Wschód',
        nextIrrigation: east.nextIrrigation,
        arrivalHours: 0,
        rate: eastDose,
        source: 'advised',
        restDose: Math.round((expected - eastNet) * 10) / 10,
      },
      {
        name: 'Zachód',
        nextIrrigation: null,
        arrivalHours: expect.any(Number),
        rate: 0,
        source: 'dry_pass',
        restDose: null,
      },
    ]);
    expect(answer.programData!.features.map((sector) => sector.properties)).toEqual([
      { name: 'Wschód', rate: eastDose },
      { name: 'Zachód', rate: 0 },
    ]);
  });
});
