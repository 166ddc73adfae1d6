import { PresenceMessageSchema, TOPIC_ROOT, TelemetryMessageSchema, topics } from '@pivot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type Fleet, startFleet } from '../src/fleet';
import { FleetConsole } from '../src/fleet-console';
import { describeOnBrokers, uniqueId } from './support/brokers';
import { forget } from './support/protocol-harness';
import { TestServer, json } from './support/test-server';

describeOnBrokers('the simulator console on a running fleet', (brokerUrl) => {
  let server: TestServer;
  let fleet: Fleet;
  let idPrefix: string;
  const written: string[] = [];
  let fleetConsole: FleetConsole;
  beforeAll(async () => {
    server = await TestServer.connect(brokerUrl());
    idPrefix = uniqueId('');
    await server.watch(`${TOPIC_ROOT}/machines/${idPrefix}SIM-0001/+`, `${TOPIC_ROOT}/machines/${idPrefix}SIM-0002/+`);
    fleet = await startFleet({
      brokerUrl: brokerUrl(),
      count: 2,
      idPrefix,
      seed: 5,
      alarmChancePerHour: 0,
      intervals: { movingTelemetryMs: 100, restingTelemetryMs: 300, weatherMs: 60_000, soilMs: 60_000 },
    });
    fleetConsole = new FleetConsole(fleet, (text) => written.push(text));
    return async () => {
      await fleet.stop();
      const ids = fleet.machines.map((machine) => machine.id);
      await forget(brokerUrl(), ids, [
        ...ids.flatMap((id) => [topics.presence(id), topics.program(id)]),
        ...fleet.stations.map((station) => topics.weather(station.machineId, station.id)),
        ...fleet.sensors.map((sensor) => topics.soil(sensor.machineId, sensor.id)),
      ]);
    };
  });
  afterAll(() => server.close());

  const presenceOf = (id: string) =>
    server.on(topics.presence(id)).map((message) => PresenceMessageSchema.parse(json(message)));
  const lastWritten = () => written.at(-1);

  it('names the fleet’s machines when asked for one it does not have, and shows them all on status', async () => {
    await fleetConsole.run('freeze PIVOT-09');
    expect(lastWritten()).toBe(
      `No machine "PIVOT-09" in this fleet; its machines are ${idPrefix}SIM-0001, ${idPrefix}SIM-0002`,
    );
    await fleetConsole.run('melt SIM-0001');
    expect(lastWritten()).toMatch(/^Unknown command "melt"/);
    await fleetConsole.run('status');
    expect(lastWritten()!.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${idPrefix}SIM-0001  (front|back|stop)  \\d+\\.\\d°$`)),
      expect.stringMatching(new RegExp(`^${idPrefix}SIM-0002  (front|back|stop)  \\d+\\.\\d°$`)),
    ]);
    expect(fleetConsole.unknownMachines([{ machineId: 'SIM-0003', kind: 'freeze', afterS: 1 }])).toEqual([
      expect.stringMatching(/^No machine "SIM-0003" in this fleet/),
    ]);
    expect(fleetConsole.unknownMachines([{ machineId: 'sim-0002', kind: 'freeze', afterS: 1 }])).toEqual([]);
  });

  it('cuts and restores the water of a machine named without the fleet’s prefix, in any case', async () => {
    const machine = fleet.machines[0]!;
    machine.stopUnexpectedly();
    await fleetConsole.run('cut-water sim-0001');
    expect(lastWritten()).toBe(`${machine.id}: water cut; it is at rest (stop), so this shows once it is started`);
    expect(machine.state().waterCut).toBe(true);
    await fleetConsole.run('cut-water SIM-0001');
    expect(lastWritten()).toBe(`${machine.id}: its water is already cut`);
    await fleetConsole.run('status SIM-0001');
    expect(lastWritten()).toBe(`${machine.id}  stop  ${machine.state().angle.toFixed(1)}°  water cut`);
    await fleetConsole.run('stop-unexpectedly SIM-0001');
    expect(lastWritten()).toBe(`${machine.id}: not moving (stop), nothing to stop`);
    await fleetConsole.run('restore-water SIM-0001');
    expect(lastWritten()).toBe(`${machine.id}: water restored`);
    expect(machine.state().waterCut).toBe(false);
  });

  it('drops a machine off on schedule, so its will arrives, then brings it back when told; typed lines run in turn', async () => {
    const machine = fleet.machines[1]!;
    const before = written.length;
    const cancel = fleetConsole.schedule([
      { machineId: 'SIM-0002', kind: 'drop-off', afterS: 0.2 },
      { machineId: 'SIM-0002', kind: 'freeze', afterS: 0.2 },
    ]);
    await vi.waitFor(() => expect(presenceOf(machine.id).at(-1)).toEqual({ v: 1, online: false }));
    await vi.waitFor(() => expect(written).toHaveLength(before + 2));
    expect(written.slice(before)).toEqual([
      `(scheduled at 0.2 s) ${machine.id}: dropped off without a DISCONNECT; the broker publishes its last will (offline)`,
      expect.stringMatching(new RegExp(`^\\(scheduled at 0.2 s\\) ${machine.id}: could not freeze: .*not connected`)),
    ]);
    cancel();

    const reports = server.on(topics.telemetry(machine.id)).length;
    const typed = [fleetConsole.run('status SIM-0002'), fleetConsole.run('come-back SIM-0002')];
    await Promise.all(typed);
    expect(written.slice(-2)).toEqual([expect.stringMatching(/ {2}dropped off$/), `${machine.id}: back, online again`]);
    await vi.waitFor(() => expect(presenceOf(machine.id).at(-1)).toMatchObject({ v: 1, online: true }));
    await vi.waitFor(() => expect(server.on(topics.telemetry(machine.id)).length).toBeGreaterThan(reports));
    expect(TelemetryMessageSchema.parse(json(server.on(topics.telemetry(machine.id)).at(-1)))).toMatchObject({ v: 1 });
    await fleetConsole.run('come-back SIM-0002');
    expect(lastWritten()).toBe(`${machine.id}: has not dropped off`);
  });
});
