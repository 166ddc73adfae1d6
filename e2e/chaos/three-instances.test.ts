import { type Fleet, createFleet, siteId } from '@pivot/simulator';
import { expect, inject, it, onTestFinished } from 'vitest';
import { registerController } from '../support/controllers';
import { AcknowledgedReports, type LedgerReading, describeLedger, readLedger } from '../support/report-ledger';
import type { ServerProcess } from '../support/server-process';
import { recordFigures } from './support/figures';
import { describeLosses, reportThroughAKill } from './support/ingestion';
import { commandsThroughAKill, reportCommands } from './support/pending-commands';
import { queryDatabase, signInAsAdmin, startProductOnMosquitto, until } from './support/product';

/** The fleet behind the measured streams: registered controllers, every one moving and reporting each second. */
const FLEET_SIZE = 60;
const FLEET_REPORT_MS = 1000;
/** How long the instances' share of the fleet's reports may take to reach the database once the fleet stops. */
const FLEET_SETTLE_MS = 30_000;

/** Telemetry reports an instance received since it started (GET /api/health). */
async function reportsReceived(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/health`);
  return ((await response.json()) as { reportsReceived: number }).reportsReceived;
}

/**
 * A fleet of registered controllers on the broker, each reporting every second while it moves,
 * and the ledger of its reports the broker acknowledged.
 */
async function startFleetLoad(
  server: ServerProcess,
  brokerUrl: string,
): Promise<{ fleet: Fleet; acknowledged: AcknowledgedReports }> {
  const admin = await signInAsAdmin(server);
  const idPrefix = `CHAOS3-${Date.now().toString(36).toUpperCase()}-`;
  const credentials: Record<string, string> = {};
  const acknowledged = new AcknowledgedReports();
  for (let index = 1; index <= FLEET_SIZE; index += 1) {
    const machineId = siteId(idPrefix, 'SIM', index);
    credentials[machineId] = await registerController(admin, machineId);
  }
  const fleet = createFleet({
    brokerUrl,
    count: FLEET_SIZE,
    idPrefix,
    credentials,
    alarmChancePerHour: 0,
    intervals: { movingTelemetryMs: FLEET_REPORT_MS, restingTelemetryMs: FLEET_REPORT_MS },
    onReportAcknowledged: (machineId, ts) => acknowledged.record(machineId, ts),
  });
  await fleet.start();
  onTestFinished(() => fleet.stop());
  return { fleet, acknowledged };
}

/**
 * Three instances, each with its own SERVER_ID, on one Mosquitto and one PostgreSQL, under a
 * fleet's load: the shared subscription hands each instance a share of the machines' reports.
 * Then one instance is killed with SIGKILL mid-stream and started again (a survivor is asked
 * what was stored), and another is killed while two motion commands wait for their machines
 * (one answers late, one never) and each is asked again with its Idempotency-Key. Every
 * acknowledged report is stored, the fleet's included, and each machine carries its command out once.
 */
it('f. three instances under a fleet: each takes a share; one killed (kill -9): no report lost, no command carried out twice', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto([
    { SERVER_ID: 'chaos-one' },
    { SERVER_ID: 'chaos-two' },
    { SERVER_ID: 'chaos-three' },
  ]);
  const [first, second, third] = servers as [ServerProcess, ServerProcess, ServerProcess];
  const { fleet, acknowledged } = await startFleetLoad(second, brokerUrl);

  // Each instance takes a share of the fleet's reports.
  const before = await Promise.all(servers.map(reportsReceived));
  expect(
    await until(
      async () => (await Promise.all(servers.map(reportsReceived))).every((n, i) => n > before[i]! + 20),
      30_000,
    ),
  ).toBe(true);
  const shares = await Promise.all(servers.map(reportsReceived));

  const reports = await reportThroughAKill(first, brokerUrl, second);
  const commands = await commandsThroughAKill(third, brokerUrl);

  await fleet.stop();
  let fleetLedger: LedgerReading | undefined;
  await until(async () => {
    fleetLedger = await readLedger(
      <Row>(text: string, values: unknown[]) => queryDatabase<Row>(second, text, values),
      acknowledged,
    );
    return fleetLedger.missing.length === 0;
  }, FLEET_SETTLE_MS);
  const fleetMissing = fleetLedger!.missing;

  await recordFigures(inject('chaosFiguresDir'), {
    key: 'f',
    scenario: 'f. three instances under a fleet, one killed (kill -9) and restarted',
    reportsAcknowledged: reports.acknowledged + fleetLedger!.acknowledged,
    reportsLost: reports.lost.length + fleetMissing.length,
    note: `shares of the fleet's reports before the kill: ${shares.join(' / ')}; the stream: ${describeLosses(reports)}; the fleet of ${FLEET_SIZE}: ${describeLedger(
      fleetLedger!,
    )
      .map((line) => line.trim())
      .join('; ')}`,
  });
  await reportCommands('f-commands', 'f. three instances under a fleet: commands through a kill', commands);
  expect(reports.lost.length, 'acknowledged reports of the stream lost').toBe(0);
  expect(fleetMissing, "the fleet's acknowledged reports found nowhere").toEqual([]);
}, 360_000);
