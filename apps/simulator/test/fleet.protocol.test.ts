import {
  MachineProgramMessageSchema,
  PresenceMessageSchema,
  ReplyMessageSchema,
  SoilMessageSchema,
  TOPIC_ROOT,
  TelemetryMessageSchema,
  WeatherMessageSchema,
  topics,
} from '@pivot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DEMO_MACHINES, demoProgramOn } from '../src/demo-farm';
import { startDemoFleet } from '../src/demo-fleet';
import { simulateDemoHistory } from '../src/demo-history';
import { Fleet, type FleetOptions, createFleet, startFleet } from '../src/fleet';
import { describeOnBrokers, uniqueId } from './support/brokers';
import { forget, sleep } from './support/protocol-harness';
import { TestServer, json } from './support/test-server';

const FAST_INTERVALS = { movingTelemetryMs: 100, restingTelemetryMs: 300, weatherMs: 200, soilMs: 200 };

describeOnBrokers('fleet', (brokerUrl) => {
  let server: TestServer;
  const fleets: Fleet[] = [];
  beforeAll(async () => {
    server = await TestServer.connect(brokerUrl());
  });
  afterAll(async () => {
    await Promise.all(fleets.map((fleet) => fleet.stop()));
    const machineIds = fleets.flatMap((fleet) => fleet.machines.map((machine) => machine.id));
    await forget(brokerUrl(), machineIds, [
      ...machineIds.flatMap((id) => [topics.presence(id), topics.program(id)]),
      ...fleets.flatMap((fleet) => fleet.stations.map((station) => topics.weather(station.machineId, station.id))),
      ...fleets.flatMap((fleet) => fleet.sensors.map((sensor) => topics.soil(sensor.machineId, sensor.id))),
    ]);
    await server.close();
  });

  /** Starts a fleet with IDs of its own and watches everything it publishes. */
  async function started(start: (options: FleetOptions) => Promise<Fleet>): Promise<Fleet> {
    const fleet = await start({ brokerUrl: brokerUrl(), idPrefix: uniqueId(''), seed: 3, intervals: FAST_INTERVALS });
    fleets.push(fleet);
    await server.watch(
      ...fleet.machines.map((machine) => `${TOPIC_ROOT}/machines/${machine.id}/+`),
      ...fleet.stations.map((station) => topics.weather(station.machineId, station.id)),
      ...fleet.sensors.map((sensor) => topics.soil(sensor.machineId, sensor.id)),
    );
    return fleet;
  }

  it('runs machines online with their stations and probes publishing retained readings, and stops them', async () => {
    const fleet = await started((options) => startFleet({ ...options, count: 2 }));
    expect(fleet.machines.map((machine) => machine.id)).toEqual([
      expect.stringMatching(/SIM-0001$/),
      expect.stringMatching(/SIM-0002$/),
    ]);
    await vi.waitFor(() => {
      for (const station of fleet.stations)
        expect(server.on(topics.weather(station.machineId, station.id)).length).toBeGreaterThan(1);
      for (const sensor of fleet.sensors)
        expect(server.on(topics.soil(sensor.machineId, sensor.id)).length).toBeGreaterThan(1);
    });
    for (const station of fleet.stations) {
      for (const message of server.on(topics.weather(station.machineId, station.id)))
        WeatherMessageSchema.parse(json(message));
    }
    for (const sensor of fleet.sensors) {
      for (const message of server.on(topics.soil(sensor.machineId, sensor.id))) SoilMessageSchema.parse(json(message));
    }
    for (const machine of fleet.machines) {
      expect(machine.state()).toMatchObject({ connected: true, status: expect.stringMatching(/front|back/) });
    }

    await fleet.stop();
    await vi.waitFor(() => {
      for (const machine of fleet.machines) {
        expect(PresenceMessageSchema.parse(json(server.on(topics.presence(machine.id)).at(-1)))).toEqual({
          v: 1,
          online: false,
        });
      }
    });
  });

  it('holds every report, answering commands, until told to report, then spreads the reports over their intervals', async () => {
    const intervalMs = 1000;
    const fleet = await started(async (options) => {
      const held = createFleet({
        ...options,
        count: 6,
        holdReports: true,
        intervals: {
          movingTelemetryMs: intervalMs,
          restingTelemetryMs: intervalMs,
          weatherMs: intervalMs,
          soilMs: intervalMs,
        },
      });
      await held.start();
      return held;
    });
    const reportTopics = [
      ...fleet.machines.map((machine) => topics.telemetry(machine.id)),
      ...fleet.stations.map((station) => topics.weather(station.machineId, station.id)),
      ...fleet.sensors.map((sensor) => topics.soil(sensor.machineId, sensor.id)),
    ];
    const first = fleet.machines[0]!;
    const identify = await server.send(first.id, { type: 'identify' });
    await vi.waitFor(() => expect(server.repliesTo(identify.id)).toHaveLength(1));
    expect(ReplyMessageSchema.parse(json(server.repliesTo(identify.id)[0]))).toMatchObject({ ok: true });
    // Each machine announces itself on its own connection, so the others' presence may come after the first's reply.
    await vi.waitFor(() => {
      for (const machine of fleet.machines) {
        expect(PresenceMessageSchema.parse(json(server.on(topics.presence(machine.id)).at(-1)))).toMatchObject({
          online: true,
        });
      }
    });
    await sleep(1.5 * intervalMs);
    expect(reportTopics.flatMap((topic) => server.on(topic))).toEqual([]);

    const told = Date.now();
    fleet.startReporting();
    await vi.waitFor(() => {
      for (const topic of reportTopics) expect(server.on(topic).length).toBeGreaterThan(0);
    }, 3 * intervalMs);
    const firstReports = fleet.machines.map(
      (machine) => TelemetryMessageSchema.parse(json(server.on(topics.telemetry(machine.id))[0])).ts - told,
    );
    // Within one interval, give or take a timer running late on a busy machine.
    for (const after of firstReports) expect(after).toBeLessThan(intervalMs + 300);
    // Six machines at random points of a second: all within a tenth of it is a chance of 1 in 16,000.
    expect(Math.max(...firstReports) - Math.min(...firstReports)).toBeGreaterThan(intervalMs / 10);
  });

  it('runs the demo machines with their programs, carrying on from the farm’s history', async () => {
    // Late November: the history leaves a pivot in the middle of a turn.
    const history = simulateDemoHistory(Date.UTC(2026, 10, 28, 22));
    const fleet = await started((options) => startDemoFleet({ ...options, history }));
    expect(fleet.machines).toHaveLength(DEMO_MACHINES.length);
    await vi.waitFor(() => {
      for (const [index, machine] of fleet.machines.entries()) {
        const message = MachineProgramMessageSchema.parse(json(server.on(topics.program(machine.id)).at(-1)));
        // The day's program: the crop areas out of season that day (wheat harvested, maize not yet sown) dry.
        expect(message.program).toMatchObject(demoProgramOn(DEMO_MACHINES[index]!, '2026-11-28'));
      }
    });
    const moving = fleet.machines.find((machine) => machine.state().status === 'front')!;
    const angle = moving.state().angle;
    await vi.waitFor(() => expect(server.on(topics.telemetry(moving.id)).length).toBeGreaterThan(3));
    expect(json(server.on(topics.telemetry(moving.id)).at(-1))).toMatchObject({ status: 'front' });
    expect(moving.state().angle).not.toBe(angle);
  });

  it('wets a probe when the arm waters over it', async () => {
    const idPrefix = uniqueId('');
    const centre = { lat: 52.3, lng: 17 };
    const fleet = new Fleet(
      {
        machines: [
          {
            id: `${idPrefix}SIM-0001`,
            name: 'Test',
            ...centre,
            armLength: 300,
            flow: 100,
            angle: 0,
            motion: 'front',
            program: null,
          },
        ],
        stations: [],
        sensors: [
          {
            id: `${idPrefix}SOIL-0001`,
            machineId: `${idPrefix}SIM-0001`,
            lat: 52.3012,
            lng: 17.0001,
            depth: 30,
            moisture: 20,
          },
        ],
      },
      { brokerUrl: brokerUrl(), idPrefix, timeScale: 3000, intervals: FAST_INTERVALS },
    );
    fleets.push(fleet);
    await fleet.start();
    await vi.waitFor(() => expect(fleet.sensors[0]!.moisture).toBeGreaterThan(20), { timeout: 3000 });
  });
});
