import { randomBytes } from 'node:crypto';
import { SprinklerListItemSchema } from '@pivot/contracts';
import type { HttpSession } from '@pivot/e2e/support/http-session';
import type { UserRow } from '@pivot/server/src/modules/users/users.table';
import {
  DEMO_MACHINES,
  type DemoMachine,
  Fleet,
  type FleetIntervals,
  type FleetLayout,
  type MachineSite,
  type SensorSite,
  type StationSite,
} from '@pivot/simulator';
import { type BenchServer, type ServerSetup, startBenchServer } from './bench-server';
import type { BenchOptions } from './cli';
import { forgetFleet } from './broker-cleanup';

export type SimulatedMachine = {
  /** The machine as the API knows it. */
  sprinklerId: number;
  demo: DemoMachine;
  /** The weather station beside it. */
  station: StationSite;
};

/** How the machine runs; by default the simulator's own defaults on the third demo machine. */
export type MachineSetup = {
  /** The demo machine to set up (its field, crops and program); the third by default. */
  demo?: DemoMachine;
  /** Simulated minutes per real minute; 1 by default. */
  timeScale?: number;
  /** How often the machine, its station and probes report; the simulator's defaults otherwise. */
  intervals?: Partial<FleetIntervals>;
  /**
   * Stops the server's periodic water accounting before the machine is added, so that telemetry
   * inserted afterwards for an earlier season is still counted (the accounting only moves forwards).
   */
  pauseWaterAccounting?: boolean;
  server?: ServerSetup;
};

const METRES_PER_DEGREE = 111_320;

/** The point northM metres north and eastM east of the centre (a flat approximation, fine for a field). */
export function offset(centre: { lat: number; lng: number }, northM: number, eastM: number) {
  return {
    lat: centre.lat + northM / METRES_PER_DEGREE,
    lng: centre.lng + eastM / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180)),
  };
}

/**
 * Demo machines under IDs of the benchmark's own, each with a weather station 1.5 km away and
 * three soil probes under its arm: machines as a farmer's pages show them. One machine is the
 * given demo machine; more take the demo machines in turn (each field, crops and program as in
 * the demo, several machines to a field), each under an ID of its own.
 */
function demoLayout(idPrefix: string, demos: readonly DemoMachine[]): FleetLayout {
  const layout = { machines: [] as MachineSite[], stations: [] as StationSite[], sensors: [] as SensorSite[] };
  demos.forEach((demo, index) => {
    const suffix = demos.length === 1 ? '' : `-${index + 1}`;
    const machineId = `${idPrefix}${demo.id}${suffix}`;
    layout.machines.push({ ...demo, id: machineId, name: `${demo.name}${suffix}` });
    layout.stations.push({ id: `${idPrefix}WS${suffix || '-1'}`, machineId, ...offset(demo, 1500, 200) });
    layout.sensors.push(
      ...[0.3, 0.6, 0.9].map((share, sensor) => ({
        id: `${idPrefix}SOIL${suffix}-${sensor + 1}`,
        machineId,
        ...offset(demo, demo.armLength * share * 0.7, demo.armLength * share * 0.7),
        depth: 30,
        moisture: 24,
      })),
    );
  });
  return layout;
}

/** Throws with the answer unless the call answered the expected status. */
export function expectStatus(response: { status: number; body: unknown }, status: number, what: string): unknown {
  if (response.status !== status) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
  }
  return response.body;
}

/**
 * Starts simulated machines on the server's broker and sets each up through the API as an
 * administrator would: added by its ID (the machine answers the identify command), its field
 * drawn, its program stored, and granted to the users.
 */
async function setUpSimulatedMachines(
  server: BenchServer,
  admin: HttpSession,
  users: readonly UserRow[],
  demos: readonly DemoMachine[],
  setup: MachineSetup,
): Promise<{ machines: SimulatedMachine[]; stop: () => Promise<void> }> {
  const idPrefix = `BENCH${randomBytes(3).toString('hex')}-`;
  const layout = demoLayout(idPrefix, demos);
  const brokerUrl = server.app.mqttUrl;
  const fleet = new Fleet(layout, {
    brokerUrl,
    idPrefix,
    credentials: await server.registerControllers(layout.machines.map((machine) => machine.id)),
    alarmChancePerHour: 0,
    timeScale: setup.timeScale,
    intervals: setup.intervals,
  });
  await fleet.start();
  /** Stops the machines, their stations and probes, and clears what they left on a shared broker. */
  const stop = async () => {
    await fleet.stop();
    if (server.external.broker) await forgetFleet(brokerUrl, fleet);
  };
  try {
    const machines: SimulatedMachine[] = [];
    for (const [index, demo] of demos.entries()) {
      const added = SprinklerListItemSchema.parse(
        expectStatus(
          await admin.call('POST', '/api/sprinkler/', { internalId: layout.machines[index]!.id }),
          201,
          'adding',
        ),
      );
      const path = `/api/sprinkler/${added.id}`;
      expectStatus(await admin.call('PATCH', `${path}/`, { areaMap: demo.areaMap }), 200, 'drawing the field');
      expectStatus(await admin.call('POST', `${path}/program/`, demo.program), 201, 'storing the program');
      for (const user of users) {
        expectStatus(
          await admin.call('PATCH', `${path}/permissions/`, { user: user.id, action: 'grant' }),
          200,
          'granting access',
        );
      }
      machines.push({ sprinklerId: added.id, demo, station: layout.stations[index]! });
    }
    return { machines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type MachineBench = { server: BenchServer; machine: SimulatedMachine; users: UserRow[] };
export type FleetBench = { server: BenchServer; machines: SimulatedMachine[]; users: UserRow[] };

/**
 * Runs the work against a server with `machineCount` simulated machines (the demo machines in
 * turn) set up and granted to `userCount` new users, then takes the machines and the server
 * down, whatever happened.
 */
export async function withSimulatedMachines(
  options: BenchOptions,
  userCount: number,
  machineCount: number,
  work: (bench: FleetBench) => Promise<void>,
  setup: MachineSetup = {},
): Promise<void> {
  const server = await startBenchServer(options, setup.server);
  try {
    if (setup.pauseWaterAccounting) await server.app.waterAccounting.stop();
    const users: UserRow[] = [];
    for (let index = 0; index < userCount; index += 1) users.push(await server.createUser());
    const demos =
      machineCount === 1
        ? [setup.demo ?? DEMO_MACHINES[2]!]
        : Array.from({ length: machineCount }, (_, index) => DEMO_MACHINES[index % DEMO_MACHINES.length]!);
    const fleet = await setUpSimulatedMachines(server, await server.signInAdmin(), users, demos, setup);
    try {
      await work({ server, machines: fleet.machines, users });
    } finally {
      await fleet.stop();
    }
  } finally {
    await server.close();
  }
}

/** withSimulatedMachines with one machine, by default the third demo machine. */
export function withSimulatedMachine(
  options: BenchOptions,
  userCount: number,
  work: (bench: MachineBench) => Promise<void>,
  setup: MachineSetup = {},
): Promise<void> {
  return withSimulatedMachines(
    options,
    userCount,
    1,
    ({ server, machines, users }) => work({ server, machine: machines[0]!, users }),
    setup,
  );
}
