/**
 * Simulated machines in a process of their own, driven by bench/telemetry-ingest.ts: the
 * machines publish as real controllers would, while the server under test has its own core.
 */
import { performance } from 'node:perf_hooks';
import { type Credentials, type Fleet, type PivotMachine, startFleet } from '@pivot/simulator';
import { forgetFleet } from './broker-cleanup';
import { serveParent } from './child-script';
import { sleep } from './stats';

export type FleetRequest =
  | {
      type: 'start';
      brokerUrl: string;
      count: number;
      idPrefix: string;
      telemetryMs: number;
      credentials: Credentials;
    }
  /** As fast as the broker acknowledges, or paced at `perSecond` reports a second in all. */
  | { type: 'flood'; perMachine: number; maxInFlight: number; perSecond: number | undefined }
  /** `forget`: a shared broker keeps sessions and retained messages, which the fleet clears. */
  | { type: 'stop'; forget: boolean };

export type FleetEvent =
  { type: 'started'; machineIds: string[] } | { type: 'flooded'; at: number } | { type: 'stopped' };

let running: { fleet: Fleet; brokerUrl: string } | undefined;

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
        // Moving or not, every machine reports at the same interval.
        intervals: { movingTelemetryMs: request.telemetryMs, restingTelemetryMs: request.telemetryMs },
      });
      running = { fleet, brokerUrl: request.brokerUrl };
      tell({ type: 'started', machineIds: fleet.machines.map((machine) => machine.id) });
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
    case 'stop':
      if (running) {
        await running.fleet.stop();
        if (request.forget) await forgetFleet(running.brokerUrl, running.fleet);
      }
      tell({ type: 'stopped' });
  }
});
