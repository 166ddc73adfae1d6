import { expect, onTestFinished } from 'vitest';
import { registerController, uniqueMachineId } from '../../support/controllers';
import type { HttpSession } from '../../support/http-session';
import type { ServerProcess } from '../../support/server-process';
import { addMachine, signInAsAdmin, storedReports, until, untilStored } from './product';
import { ReportingController } from './reporting-controller';

/** Reports a second: a busy farm's worth, and enough that a disruption lands among reports in flight. */
export const RATE = 500;
/**
 * The embedded broker acknowledges a report to the controller before it hands it to the server
 * in the same process (docs/operations.md, "Chaos suite"): a kill -9 takes with it those the
 * server had not read yet, which is as long as its event loop lags (PGlite's queries run on it).
 * Measured up to a few tens of ms; a report acknowledged longer ago than this is a loss the
 * server is to blame for.
 */
export const EMBEDDED_BROKER_WINDOW_MS = 500;
/**
 * How long the reports queued at the controller during a disruption may take to be
 * acknowledged: mqtt.js sends them again one at a time, each after the previous one's PUBACK.
 */
const BACKLOG_MS = 90_000;

/** A registered controller, added to the product as a machine, reporting through `brokerUrl`. */
export async function startReporting(admin: HttpSession, brokerUrl: string, prefix: string) {
  const machineId = uniqueMachineId(prefix);
  const secret = await registerController(admin, machineId);
  const controller = await ReportingController.connect(brokerUrl, machineId, secret);
  onTestFinished(() => controller.end());
  return { controller, sprinklerId: await addMachine(admin, machineId) };
}

/**
 * Reports at RATE; a second and a half in, `disrupt` runs (a kill and a restart, a broker
 * stopped and started). Once it is over, a second more of reports; then waits until every
 * report was acknowledged (the controller sends again what was not) and the newest is stored.
 * Whether the newest showed in the API in time: if not, the figures say so.
 */
export async function reportThrough(
  controller: ReportingController,
  reader: { admin: HttpSession; sprinklerId: number },
  disrupt: () => Promise<void>,
): Promise<boolean> {
  controller.startStream(RATE);
  expect(await until(() => controller.acknowledged.size >= RATE * 1.5, 30_000)).toBe(true);
  await disrupt();
  const sentBeforeBack = controller.sent;
  expect(await until(() => controller.acknowledged.size >= sentBeforeBack + RATE, BACKLOG_MS)).toBe(true);
  controller.stopStream();
  await controller.allAcknowledged(30_000);
  return untilStored(reader.admin, reader.sprinklerId, controller.sent, 30_000);
}

/**
 * How long the reports an instance still holds may take to reach the database once the newest
 * is stored: with several instances, the newest may be stored by one while another is still
 * storing what it received (the restarted one replays its journal first).
 */
const SETTLE_MS = 15_000;

/** The acknowledged reports (their ts) the database does not hold, once the instances had time to store what they hold. */
export async function lostReports(server: ServerProcess, controller: ReportingController): Promise<number[]> {
  let missing: number[] = [];
  await until(async () => {
    const stored = await storedReports(server, controller.machineId);
    missing = [...controller.acknowledged.keys()].filter((ts) => !stored.has(ts));
    return missing.length === 0 || !server.databaseUrl;
  }, SETTLE_MS);
  return missing;
}

export type KillOutcome = {
  acknowledged: number;
  /**
   * Acknowledged reports not in the database: when each was acknowledged relative to the kill (ms,
   * negative: before), and whether by the broker after the restart. One acknowledged a little
   * after the kill was begun, on the connection the kill broke, was acknowledged by the dying
   * process: a signal takes a moment to land, and the controller to read what came before it.
   */
  lost: { ts: number; sinceKill: number; afterRestart: boolean }[];
  restartMs: number;
  caughtUp: boolean;
};

/**
 * A controller reports through the broker; mid-stream `killed` is killed with SIGKILL and
 * started again on the same data. Then every acknowledged report is looked for in the database,
 * through `reader` (the killed one itself, or another instance on the same database).
 */
export async function reportThroughAKill(
  killed: ServerProcess,
  brokerUrl: string,
  reader: ServerProcess = killed,
): Promise<KillOutcome> {
  const admin = await signInAsAdmin(reader);
  const { controller, sprinklerId } = await startReporting(admin, brokerUrl, 'CHAOS-KILL');
  let killedAt = 0;
  let restartMs = 0;
  let connectionAtKill = 0;
  const caughtUp = await reportThrough(controller, { admin, sprinklerId }, async () => {
    connectionAtKill = controller.connection;
    killedAt = Date.now();
    await killed.kill();
    await killed.restart();
    restartMs = Date.now() - killedAt;
  });
  // PGlite is read once the server is stopped, and a clean stop stores what it still holds.
  if (!reader.databaseUrl) await reader.terminate();
  const lost = (await lostReports(reader, controller)).map((ts) => ({
    ts,
    sinceKill: controller.acknowledged.get(ts)! - killedAt,
    afterRestart: controller.acknowledgedOn.get(ts)! > connectionAtKill,
  }));
  return { acknowledged: controller.acknowledged.size, lost, restartMs, caughtUp };
}

/** When the lost reports were acknowledged, for the figures' note. */
export function describeLosses(outcome: KillOutcome): string {
  const restart = `restart took ${(outcome.restartMs / 1000).toFixed(1)} s`;
  const notStored = outcome.caughtUp ? [] : ['the newest report never showed in the API'];
  if (outcome.lost.length === 0) return [restart, ...notStored].join(', ');
  const before = outcome.lost.filter((report) => report.sinceKill <= 0).map((report) => report.sinceKill);
  const dying = outcome.lost.filter((report) => report.sinceKill > 0 && !report.afterRestart);
  const after = outcome.lost.filter((report) => report.afterRestart).length;
  const earliest = before.length > 0 ? ` (the earliest ${-Math.min(...before)} ms before it)` : '';
  const latest =
    dying.length > 0 ? ` (the latest ${Math.max(...dying.map((report) => report.sinceKill))} ms after)` : '';
  return [
    `lost: ${before.length} acknowledged before the kill${earliest}`,
    `${dying.length} by the dying process as the kill landed${latest}`,
    `${after} after it was back`,
    restart,
    ...notStored,
  ].join(', ');
}
