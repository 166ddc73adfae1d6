/**
 * A share of bench/fleet.ts's controllers in a process of their own: machines
 * `from`..`to` (1-based, `to` excluded) of a fleet laid out the same way in every share, each on
 * its own MQTT connection with the secret the server registered for it. They answer commands
 * (the identify that adds them) from the start but report only once told to (`report`): then
 * `movingShare` of them water (a report every 5 s), the rest stand (one every 60 s), each with
 * its weather station and soil probes unless told otherwise, each machine's first reports at
 * random points of their intervals. It misbehaves on request (an alarm, a drop-off and its
 * return) and keeps the ledger of the telemetry the broker acknowledged: each report's machine and ts.
 */
import {
  type Credentials,
  Fleet,
  type PivotMachine,
  createRandom,
  generateMachineSites,
  surroundings,
} from '@pivot/simulator';
import { AcknowledgedReports, type AcknowledgedReportsTransfer } from '@pivot/e2e/support/report-ledger';
import { serveParent } from './child-script';
import { waitUntil } from './stats';

export type ShareRequest =
  | {
      type: 'start';
      brokerUrl: string;
      idPrefix: string;
      /** The whole fleet's size: the layout is generated whole, so every share agrees on it. */
      fleetSize: number;
      from: number;
      to: number;
      movingShare: number;
      peripherals: boolean;
      credentials: Credentials;
    }
  /** Starts the machines' reports, held until every machine of the fleet is added. */
  | { type: 'report' }
  /** Cuts the water of a machine of this share that waters: its safety stops it at once with an alarm. */
  | { type: 'alarm' }
  /** Drops a machine's connection without a DISCONNECT (the broker publishes its will); it comes back after `awayMs`. */
  | { type: 'drop-off'; awayMs: number }
  | { type: 'count' }
  | { type: 'stop' }
  /** The acknowledged reports' machines and timestamps, once stopped. */
  | { type: 'ledger' };

export type ShareEvent =
  | { type: 'started'; connectMs: number }
  | { type: 'reporting' }
  /** `at`: when the machine published its alarm report (ms since the epoch); null machineId when none was watering. */
  | { type: 'alarmed'; machineId: string | null; at: number }
  | { type: 'dropped'; machineId: string | null }
  /** Telemetry reports the broker acknowledged, and how many machines are connected now. */
  | { type: 'count'; acknowledged: number; connected: number }
  | { type: 'stopped'; acknowledged: number }
  | { type: 'ledger'; reports: AcknowledgedReportsTransfer };

const ALARM_WITHIN_MS = 2000;
/** The layout's seed: the same in every share, so machine `n` is the same machine everywhere. */
const LAYOUT_SEED = 22;

let fleet: Fleet | undefined;
const ledger = new AcknowledgedReports();
const away = new Set<string>();
const returns = new Set<NodeJS.Timeout>();

function pickOne(
  machines: readonly PivotMachine[],
  fits: (machine: PivotMachine) => boolean,
): PivotMachine | undefined {
  const candidates = machines.filter(fits);
  return candidates[Math.floor(Math.random() * candidates.length)];
}

function acknowledged(): number {
  return (fleet?.machines ?? []).reduce((sum, machine) => sum + machine.telemetryAcknowledged, 0);
}

serveParent<ShareRequest, ShareEvent>(async (request, tell) => {
  switch (request.type) {
    case 'start': {
      const random = createRandom(LAYOUT_SEED);
      const all = generateMachineSites(request.fleetSize, random, request.idPrefix);
      const machines = all.slice(request.from - 1, request.to - 1).map((site, index) => ({
        ...site,
        // The first `movingShare` of every hundred water; the others stand.
        motion: ((request.from - 1 + index) % 100) / 100 < request.movingShare ? site.motion : ('stop' as const),
      }));
      const around = request.peripherals
        ? // Stations and probes are numbered from 1 in each share: the share's own prefix keeps their IDs apart.
          surroundings(machines, createRandom(LAYOUT_SEED + request.from), `${request.idPrefix}P${request.from}-`)
        : { stations: [], sensors: [] };
      fleet = new Fleet(
        { machines, ...around },
        {
          brokerUrl: request.brokerUrl,
          idPrefix: request.idPrefix,
          credentials: request.credentials,
          holdReports: true,
          // Only the alarms asked for; with no delay the safety stops the arm at once.
          alarmChancePerHour: 0,
          pressureSafetyDelayMs: 0,
          onReportAcknowledged: (machineId, ts) => ledger.record(machineId, ts),
        },
      );
      const started = Date.now();
      await fleet.start();
      tell({ type: 'started', connectMs: Date.now() - started });
      return;
    }
    case 'report':
      fleet?.startReporting();
      tell({ type: 'reporting' });
      return;
    case 'alarm': {
      const machine = pickOne(fleet?.machines ?? [], (candidate) => {
        const state = candidate.state();
        return state.connected && state.watering && !state.waterCut && !away.has(candidate.id);
      });
      if (!machine) return tell({ type: 'alarmed', machineId: null, at: Date.now() });
      machine.cutWater();
      await waitUntil(() => machine.state().status === 'alarm', `the alarm of ${machine.id}`, ALARM_WITHIN_MS, 1);
      tell({ type: 'alarmed', machineId: machine.id, at: Date.now() });
      return;
    }
    case 'drop-off': {
      const machine = pickOne(
        fleet?.machines ?? [],
        (candidate) => candidate.state().connected && !away.has(candidate.id),
      );
      if (!machine) return tell({ type: 'dropped', machineId: null });
      away.add(machine.id);
      await machine.dropOff();
      const timer = setTimeout(() => {
        returns.delete(timer);
        void machine.comeBack().finally(() => away.delete(machine.id));
      }, request.awayMs);
      returns.add(timer);
      tell({ type: 'dropped', machineId: machine.id });
      return;
    }
    case 'count':
      tell({
        type: 'count',
        acknowledged: acknowledged(),
        connected: (fleet?.machines ?? []).filter((machine) => machine.state().connected).length,
      });
      return;
    case 'stop':
      for (const timer of returns) clearTimeout(timer);
      await fleet?.stop();
      tell({ type: 'stopped', acknowledged: acknowledged() });
      return;
    case 'ledger':
      tell({ type: 'ledger', reports: ledger.transfer() });
  }
});
