import {
  LiveEventSchema,
  LogListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  SprinklerListResponseSchema,
  WatermapResponseSchema,
  topics,
} from '@pivot/contracts';
import { PivotMachine, type PivotMachineOptions, SoilSensor, WeatherStation, silentLogger } from '@pivot/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { buildProgram, grant, squareSector } from '../support/fixtures';
import { registerController } from '../support/devices';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const CENTRE = { lat: 52.25, lng: 17.05 };
let machineCounter = 0;

describe('machines through the broker', () => {
  let t: TestApp;
  let admin: ApiClient;
  const running: { stop: () => Promise<void> }[] = [];
  /** What the devices left retained on the broker, cleared after each test (a real broker keeps it). */
  const retainedTopics: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ COMMAND_TIMEOUT_MS: '3000' });
    admin = await t.adminClient();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((device) => device.stop()));
    await clearRetained(t.app, retainedTopics.splice(0));
  });
  afterAll(() => t.close());

  /** A simulated controller, registered first unless told otherwise, as an administrator would. */
  async function startMachine(options: Partial<PivotMachineOptions> & { registered?: boolean } = {}) {
    machineCounter += 1;
    const { registered = true, ...machineOptions } = options;
    const id = machineOptions.id ?? `SIM-${machineCounter}-${Date.now().toString(36)}`;
    const machine = new PivotMachine({
      brokerUrl: t.app.mqttUrl,
      id,
      secret: registered ? await registerController(t.app, id) : undefined,
      name: `Simulated ${machineCounter}`,
      ...CENTRE,
      armLength: 350,
      movingTelemetryMs: 200,
      restingTelemetryMs: 1000,
      programProcessingMs: 300,
      logger: silentLogger,
      ...machineOptions,
    });
    await machine.start();
    running.push(machine);
    retainedTopics.push(topics.presence(machine.id), topics.program(machine.id));
    return machine;
  }

  async function addMachine(machine: PivotMachine, name?: string) {
    const response = await admin.post('/api/sprinkler/', { internalId: machine.id, ...(name ? { name } : {}) });
    expect(response.status).toBe(201);
    return SprinklerListItemSchema.parse(response.body);
  }

  async function adminLog() {
    return LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 5 } })).body).data;
  }

  async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (accept(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('adding a machine by its ID', () => {
    it('asks the machine, which answers where it stands', async () => {
      const machine = await startMachine();
      const added = await addMachine(machine, 'Pole za stodołą');
      expect(added).toMatchObject({
        internalId: machine.id,
        name: 'Pole za stodołą',
        lat: CENTRE.lat,
        lng: CENTRE.lng,
      });
      expect((await adminLog())[0]).toMatchObject({ eventType: 'sprinkler_added', sprinklerInternalId: machine.id });
      const again = await admin.post('/api/sprinkler/', { internalId: machine.id });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'sprinkler_exists' });
    });

    it('takes the name the machine gives when none is entered', async () => {
      const machine = await startMachine({ name: 'Łąka północna' });
      expect((await addMachine(machine)).name).toBe('Łąka północna');
    });

    it.each([
      ['no machine has that ID', undefined],
      ['the machine answers too late', 'late'],
      ['the machine does not answer', 'missing'],
    ] as const)('answers 404 when %s, and logs it', async (_label, misbehaviour) => {
      const machine = misbehaviour ? await startMachine() : undefined;
      if (misbehaviour) machine?.misbehaveNext(misbehaviour);
      const internalId = machine?.id ?? 'NOBODY-HERE';
      const started = Date.now();
      const response = await admin.post('/api/sprinkler/', { internalId });
      // No controller is registered under an unknown ID, so nothing is asked and nothing waited for.
      if (!machine) expect(Date.now() - started).toBeLessThan(1000);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'sprinkler_not_on_broker' });
      expect((await adminLog())[0]).toMatchObject({
        eventType: 'sprinkler_adding_unresponsive',
        sprinklerInternalId: internalId,
      });
    });

    it('answers 500 when the machine answers with something unreadable, and logs it', async () => {
      const machine = await startMachine();
      machine.misbehaveNext('malformed');
      const response = await admin.post('/api/sprinkler/', { internalId: machine.id });
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ code: 'sprinkler_processing_error' });
      expect((await adminLog())[0]).toMatchObject({ eventType: 'sprinkler_adding_processing_error' });
    });
  });

  describe('a user working a machine', () => {
    async function setUp(options: Partial<PivotMachineOptions> = {}) {
      const machine = await startMachine(options);
      const { id } = await addMachine(machine);
      const user = await t.buildUser();
      await grant(t, id, user.id);
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      const detail = async () => {
        const response = await client.get(`/api/sprinkler/${id}/`);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return SprinklerDetailSchema.parse(response.body);
      };
      return { machine, id, client, detail };
    }

    it('starts and stops the machine, each confirmed by it and logged', async () => {
      const { machine, id, client, detail } = await setUp();
      const started = await client.post(`/api/sprinkler/${id}/motion`, { motion: 'front' });
      expect(started.status).toBe(200);
      expect(SprinklerDetailSchema.parse(started.body).status).toBe('front');
      expect(machine.state().status).toBe('front');
      const moving = await eventually(detail, (value) => (value.flow ?? 0) > 0 && value.currentPosition !== null);
      expect(moving).toMatchObject({ online: true, status: 'front' });
      expect(moving.flow).toBeGreaterThan(0);
      expect(moving.currentPosition?.geometry.coordinates[0]).toEqual([CENTRE.lng, CENTRE.lat]);

      await client.post(`/api/sprinkler/${id}/motion`, { motion: 'stop' });
      expect(machine.state().status).toBe('stop');
      const log = LogListResponseSchema.parse((await client.get('/api/logs/')).body).data;
      expect(log.slice(0, 2).map((entry) => [entry.eventType, entry.event])).toEqual([
        ['sprinkler_motion_success', 'stop'],
        ['sprinkler_motion_success', 'front'],
      ]);
    });

    it('reports a machine that does not confirm a motion: 504, logged as a failure', async () => {
      const { machine, id, client } = await setUp();
      machine.misbehaveNext('missing');
      const response = await client.post(`/api/sprinkler/${id}/motion`, { motion: 'back' });
      expect(response.status).toBe(504);
      expect(response.body).toMatchObject({ code: 'sprinkler_unresponsive' });
      const [entry] = LogListResponseSchema.parse((await client.get('/api/logs/')).body).data;
      expect(entry).toMatchObject({
        eventType: 'sprinkler_motion_failure',
        event: 'back',
        details: 'no answer in time',
      });
    });

    it('acts once on a reply that comes twice', async () => {
      const { machine, id, client } = await setUp();
      machine.misbehaveNext('duplicate');
      expect((await client.post(`/api/sprinkler/${id}/motion`, { motion: 'front' })).status).toBe(200);
      const log = LogListResponseSchema.parse((await client.get('/api/logs/')).body).data;
      expect(log.filter((entry) => entry.eventType === 'sprinkler_motion_success')).toHaveLength(1);
    });

    it('sends a program, which the machine then reports as running, with its upload time', async () => {
      const { id, client, detail } = await setUp();
      const created = SprinklerDetailSchema.parse(
        (
          await client.post(
            `/api/sprinkler/${id}/program/`,
            buildProgram('Kukurydza', [squareSector('Północ', 14, CENTRE.lng, CENTRE.lat)]),
          )
        ).body,
      );
      const programId = created.programs[0]!.id;
      const before = Date.now();
      const sent = await client.post(`/api/sprinkler/${id}/program/${programId}/send/`);
      expect(sent.status).toBe(200);
      const running = await eventually(detail, (value) => value.currentProgramData?.name === 'Kukurydza');
      expect(running.currentProgramData?.features.map((sector) => sector.properties)).toEqual([
        { name: 'Północ', rate: 14 },
      ]);
      expect(running.currentProgramTimestamp).toBeGreaterThanOrEqual(before);
      const [listed] = SprinklerListResponseSchema.parse((await client.get('/api/sprinkler/')).body);
      expect(listed).toMatchObject({
        currentProgramName: 'Kukurydza',
        currentProgramTimestamp: running.currentProgramTimestamp,
        online: true,
      });
      const [entry] = LogListResponseSchema.parse((await client.get('/api/logs/')).body).data;
      expect(entry).toMatchObject({ eventType: 'program_sent', event: 'Kukurydza' });
    });

    it('reports a program the machine did not acknowledge', async () => {
      const { machine, id, client } = await setUp();
      const created = SprinklerDetailSchema.parse(
        (await client.post(`/api/sprinkler/${id}/program/`, buildProgram('Late'))).body,
      );
      machine.misbehaveNext('late');
      const response = await client.post(`/api/sprinkler/${id}/program/${created.programs[0]!.id}/send/`);
      expect(response.status).toBe(504);
      const [entry] = LogListResponseSchema.parse((await client.get('/api/logs/')).body).data;
      expect(entry).toMatchObject({ eventType: 'program_send_failure', event: 'Late' });
    });

    it('shows the machine offline when its connection drops', async () => {
      const { machine, detail } = await setUp();
      expect((await eventually(detail, (value) => value.online)).online).toBe(true);
      await machine.crash();
      expect((await eventually(detail, (value) => !value.online)).online).toBe(false);
    });

    it('streams live telemetry to the browser', async () => {
      const { id, client, machine } = await setUp();
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const controller = new AbortController();
      const response = await fetch(`${address}/api/sprinkler/${id}/events`, {
        headers: { authorization: `Bearer ${client.access}` },
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      await client.post(`/api/sprinkler/${id}/motion`, { motion: 'front' });
      // A report the machine sent before the motion reached it may come first (a loaded machine):
      // the stream must bring the one that shows it moving.
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const statuses: string[] = [];
      while (!statuses.includes('front')) {
        text += decoder.decode((await reader.read()).value, { stream: true });
        for (const [whole, data] of text.matchAll(/event: telemetry\ndata: (.+)\n/g)) {
          const event = LiveEventSchema.parse(JSON.parse(data!));
          expect(event.type).toBe('telemetry');
          if (event.type === 'telemetry') statuses.push(event.status);
          text = text.replace(whole, '');
        }
      }
      controller.abort();
      // Until then it showed the machine standing, as it stood before the motion.
      for (const status of statuses.slice(0, -1)) expect(status).toBe('stop');
      expect(machine.state().status).toBe('front');
    });

    it('fills the watermap as the machine waters', async () => {
      // The simulator reports its nominal flow however fast it runs: in 2.5 s, water enough to show needs a big pump.
      const { id, client } = await setUp({ timeScale: 600, flow: 90 * 600 });
      await client.post(`/api/sprinkler/${id}/motion`, { motion: 'front' });
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await t.app.telemetry.flush();
      await t.app.waterAccounting.runOnce(new Date());
      const today = new Intl.DateTimeFormat('pl-PL', {
        timeZone: 'Europe/Warsaw',
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
      }).format(new Date());
      const map = WatermapResponseSchema.parse(
        (await client.get(`/api/sprinkler/${id}/watermap/`, { query: { start: today, stop: today } })).body,
      );
      expect(map.data.length).toBeGreaterThan(0);
      expect(map.data.every(([, , mm]) => mm > 0)).toBe(true);
    });

    it('shows the weather stations and soil sensors around the machine', async () => {
      const { machine, detail } = await setUp();
      const suffix = Date.now().toString(36);
      const station = new WeatherStation({
        id: `WS-${suffix}`,
        machineId: machine.id,
        lat: CENTRE.lat + 0.01,
        lng: CENTRE.lng,
        intervalMs: 200,
        logger: silentLogger,
      });
      const sensor = new SoilSensor({
        id: `SOIL-${suffix}`,
        machineId: machine.id,
        lat: CENTRE.lat,
        lng: CENTRE.lng + 0.001,
        intervalMs: 200,
        logger: silentLogger,
      });
      machine.speakFor(station);
      machine.speakFor(sensor);
      retainedTopics.push(topics.weather(machine.id, station.id), topics.soil(machine.id, sensor.id));
      const withWeather = await eventually(
        detail,
        (value) => value.weather_stations.length > 0 && value.humidity_sensors.length > 0,
      );
      expect(withWeather.weather_stations[0]).toMatchObject({
        id: station.id,
        rainfall: expect.any(Number),
        rainfall_7d: expect.any(Number),
      });
      expect(withWeather.humidity_sensors[0]).toEqual([
        CENTRE.lat,
        CENTRE.lng + 0.001,
        expect.any(Number),
        expect.any(Number),
      ]);
    });
  });
});
