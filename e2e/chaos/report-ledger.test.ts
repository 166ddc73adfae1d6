import { PROTOCOL_VERSION, topics } from '@pivot/contracts';
import { createFleet, siteId } from '@pivot/simulator';
import { expect, it, onTestFinished } from 'vitest';
import { registerController } from '../support/controllers';
import { AcknowledgedReports, type LedgerQuery, describeLedger, readLedger } from '../support/report-ledger';
import { queryDatabase, signInAsAdmin, startProductOnMosquitto, until } from './support/product';

const MACHINES = 3;
const REPORT_MS = 200;

/**
 * The ledger that bench:fleet and the chaos suite read at their end: every report the broker
 * acknowledged, looked for by its machine and ts. A fleet reports through the product; then
 * one stored report is deleted from the store and another is moved to the quarantine, as a
 * loss and a report set aside would be. The ledger names the first as found nowhere (its
 * machine and time), counts the second under its reason, and counts a report acknowledged
 * twice once.
 */
it('g. the report ledger names an acknowledged report found nowhere, and one set aside by its reason', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto();
  const server = servers[0]!;
  const admin = await signInAsAdmin(server);
  const idPrefix = `CHAOSL-${Date.now().toString(36).toUpperCase()}-`;
  const credentials: Record<string, string> = {};
  for (let index = 1; index <= MACHINES; index += 1) {
    const machineId = siteId(idPrefix, 'SIM', index);
    credentials[machineId] = await registerController(admin, machineId);
  }
  const acknowledged = new AcknowledgedReports();
  const fleet = createFleet({
    brokerUrl,
    count: MACHINES,
    idPrefix,
    credentials,
    alarmChancePerHour: 0,
    intervals: { movingTelemetryMs: REPORT_MS, restingTelemetryMs: REPORT_MS },
    onReportAcknowledged: (machineId, ts) => acknowledged.record(machineId, ts),
  });
  await fleet.start();
  onTestFinished(() => fleet.stop());
  expect(await until(() => acknowledged.size >= 30, 30_000)).toBe(true);
  await fleet.stop();

  const query: LedgerQuery = <Row>(text: string, values: unknown[]) => queryDatabase<Row>(server, text, values);
  let reading = await readLedger(query, acknowledged);
  expect(await until(async () => (reading = await readLedger(query, acknowledged)).missing.length === 0, 30_000)).toBe(
    true,
  );
  expect(reading).toMatchObject({ acknowledged: acknowledged.size, storedAsRows: acknowledged.size });

  const [machineId, timestamps] = [...acknowledged.byMachine()][0]!;
  const [lost, setAside] = [timestamps[1]!, timestamps[2]!];
  await query('delete from telemetry where machine_id = $1 and ts = any($2::timestamptz[])', [
    machineId,
    [new Date(lost), new Date(setAside)],
  ]);
  const payload = JSON.stringify({ v: PROTOCOL_VERSION, ts: setAside, status: 'front' });
  await query(
    `insert into quarantined_messages (machine_id, device_id, topic, kind, reason, detail, payload_head, payload_bytes)
     values ($1, $1, $2, 'telemetry', 'invalid', 'angle: too big', $3, $4)`,
    [machineId, topics.telemetry(machineId), Buffer.from(payload), payload.length],
  );
  acknowledged.record(machineId, timestamps[0]!);

  const after = await readLedger(query, acknowledged);
  expect(after.missing).toEqual([{ machineId, ts: lost }]);
  expect(after.setAside).toEqual(new Map([['invalid', 1]]));
  expect(after).toMatchObject({
    acknowledged: reading.acknowledged,
    acknowledgedAgain: 1,
    storedAsRows: reading.acknowledged - 2,
    storedNotAcknowledged: 0,
  });
  expect(describeLedger(after)).toContain(`  found nowhere: ${machineId} ts ${new Date(lost).toISOString()}`);
});
