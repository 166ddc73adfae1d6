/**
 * Simulated machines in a process of their own, driven by bench/telemetry-ingest.ts and
 * bench/alert-latency.ts: the machines publish as real controllers would, while the server under
 * test has its own core.
 */
import { performance } from 'node:perf_hooks';
import { type Credentials, type Fleet, type PivotMachine, startFleet } from '@pivot/simulator';
import { forgetFleet } from './broker-cleanup';
import { serveParent } from './child-script';
import { sleep, waitUntil } from './stats';

export type FleetRequest =
  | {
      type: 'start';
      brokerUrl: string;
      count: number;
      idPrefix: string;
      telemetryMs: number;
      credentials: Credentials;
      /** The simulator's chance of a pressure-loss alarm per hour of watering; its default otherwise. */
      alarmChancePerHour?: number;
      /** Simulated ms a machine runs with its water cut before its safety stops it; the simulator's default otherwise. */
      pressureSafetyDelayMs?: number;
    }
  /** As fast as the broker acknowledges, or paced at `perSecond` reports a second in all. */
  | { type: 'flood'; perMachine: number; maxInFlight: number; perSecond: number | undefined }
  /** Cuts the water of one machine that waters now and has not been cut yet, so its safety raises an alarm. */
  | { type: 'cut-water' }
  /** `forget`: a shared broker keeps sessions and retained messages, which the fleet clears. */
  | { type: 'stop'; forget: boolean };

export type FleetEvent =
  /** `dryZoneIds`: the machines whose program has a sector they cross without water (a forbidden zone). */
  | { type: 'started'; machineIds: string[]; dryZoneIds: string[] }
  | { type: 'flooded'; at: number }
  /** The machine published its alarm report at `at` (ms since the epoch); null when no machine was watering. */
  | { type: 'alarm-published'; machineId: string | null; at: number }
  | { type: 'stopped' };

let running: { fleet: Fleet; brokerUrl: string } | undefined;
/** How long a machine's safety may take to report its alarm after the water is cut, with a delay of 0. */
const ALARM_WITHIN_MS = 2000;

function hasDryZone(machine: PivotMachine): boolean {
  const features = machine.state().program?.programData.features ?? [];
  return features.some((feature) => feature.properties.rate <= 0);
}

/**
 * Cuts the water of a machine that is watering, and resolves once its low-pressure safety has
 * stopped it: the machine publishes its alarm report in the same turn of the event loop as it
 * changes its status, so the moment the status is seen is the moment of the publish, to a millisecond.
 */
async function cutWaterOfOne(machines: readonly PivotMachine[]): Promise<FleetEvent> {
  const candidates = machines.filter((machine) => {
    const state = machine.state();
    return state.connected && state.watering && !state.waterCut;
  });
  const machine = candidates[Math.floor(Math.random() * candidates.length)];
  if (!machine) return { type: 'alarm-published', machineId: null, at: Date.now() };
  machine.cutWater();
  await waitUntil(() => machine.state().status === 'alarm', `the alarm of ${machine.id}`, ALARM_WITHIN_MS, 1);
  return { type: 'alarm-published', machineId: machine.id, at: Date.now() };
}

/**
 * Publishes reports round the machines at a steady rate in all: a broker that acknowledges at
 * once (Mosquitto) does not slow its publishers down, so only pacing asks whether a rate can be
 * sustained. Each tick sends what is due by then, so a late tick catches up.
 */
async function pacedFlood(machines: readonly PivotMachine[], total: number, perSecond: number): Promise<void> {
  const start = performance.now();
  const acknowledged: Promise<void>[] = [];
  while (acknowledged.length < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * perSecond));
    for (let next = acknowledged.length; next < due; next += 1) {
      acknowledged.push(machines[next % machines.length]!.floodTelemetry(1));
    }
    await sleep(10);
  }
  await Promise.all(acknowledged);
}

serveParent<FleetRequest, FleetEvent>(async (request, tell) => {
  switch (request.type) {
    case 'start': {
      const fleet = await startFleet({
        brokerUrl: request.brokerUrl,
        count: request.count,
        idPrefix: request.idPrefix,
        credentials: request.credentials,
        alarmChancePerHour: request.alarmChancePerHour,
        pressureSafetyDelayMs: request.pressureSafetyDelayMs,
        // Moving or not, every machine reports at the same interval.
        intervals: { movingTelemetryMs: request.telemetryMs, restingTelemetryMs: request.telemetryMs },
      });
      running = { fleet, brokerUrl: request.brokerUrl };
      tell({
        type: 'started',
        machineIds: fleet.machines.map((machine) => machine.id),
        dryZoneIds: fleet.machines.filter(hasDryZone).map((machine) => machine.id),
      });
      return;
    }
    case 'flood': {
      const machines = running?.fleet.machines ?? [];
      if (request.perSecond === undefined) {
        await Promise.all(machines.map((machine) => machine.floodTelemetry(request.perMachine, request.maxInFlight)));
      } else {
        await pacedFlood(machines, request.perMachine * machines.length, request.perSecond);
      }
      tell({ type: 'flooded', at: Date.now() });
      return;
    }
    case 'cut-water':
      tell(await cutWaterOfOne(running?.fleet.machines ?? []));
      return;
    case 'stop':
      if (running) {
        await running.fleet.stop();
        if (request.forget) await forgetFleet(running.brokerUrl, running.fleet);
      }
      tell({ type: 'stopped' });
  }
});
