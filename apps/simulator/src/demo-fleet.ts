import { DEMO_MACHINES, demoProbes, demoProgramOn, demoStations } from './demo-farm';
import { type DemoHistory, simulateDemoHistory } from './demo-history';
import { Fleet, type FleetOptions } from './fleet';

/**
 * The demo runs in real time: its pivots turn as real ones do (a 420 m arm in 18 h at 100 %), so
 * the depth at 100 % the server learns from their reports is a real pivot's. The season's water
 * so far is the history's (demo-history.ts), told at the first start, not a fast clock's.
 */
export const DEMO_TIME_SCALE = 1;

export type DemoFleetOptions = FleetOptions & {
  /** The farm's past up to the start (simulateDemoHistory); simulated up to now when not given. */
  history?: DemoHistory;
};

/**
 * Builds the demo fleet, not started yet: the five machines of the demo farm (IDs with the prefix,
 * if any), each with a weather station and two soil probes in each crop area, carrying on from
 * where the farm's history left them: each arm where its last turn got to, moving if that turn
 * is not over, and each probe as moist as the history left its soil. Real time unless told otherwise.
 */
export function createDemoFleet(options: DemoFleetOptions): Fleet {
  const idPrefix = options.idPrefix ?? '';
  const seed = options.seed ?? 1;
  const history = options.history ?? simulateDemoHistory(Date.now(), seed);
  const machines = DEMO_MACHINES.map((machine, index) => {
    const { angle, motion } = history.machines[index]!;
    // The program of the day the history ends on: its crop areas out of season are not watered.
    const program = demoProgramOn(machine, new Date(history.to).toISOString().slice(0, 10));
    return { ...machine, id: `${idPrefix}${machine.id}`, angle, motion, program };
  });
  const stations = demoStations(machines, seed, idPrefix);
  const sensors = demoProbes(machines, idPrefix).map((probe, index) => ({
    ...probe,
    moisture: history.probes[index]!.moisture,
  }));
  return new Fleet({ machines, stations, sensors }, { ...options, timeScale: options.timeScale ?? DEMO_TIME_SCALE });
}

/** Builds the demo fleet (createDemoFleet) and starts it. */
export async function startDemoFleet(options: DemoFleetOptions): Promise<Fleet> {
  const fleet = createDemoFleet(options);
  await fleet.start();
  return fleet;
}
