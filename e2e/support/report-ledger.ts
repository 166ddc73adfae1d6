/**
 * A ledger of the telemetry reports the broker acknowledged to the controllers, each by its
 * identity on the server (machine and `ts`), and what became of each one: stored as a row, in a
 * packed day, set aside in the quarantine (with its reason), or found nowhere. A count of sent
 * against stored cannot tell a loss from a duplicate, a report set aside or one still queued;
 * the ledger names them.
 */

/** A machine's acknowledged timestamps (ms) in a growing typed array: 8 bytes a report, whatever the fleet's size. */
class TimestampList {
  values = new Float64Array(64);
  length = 0;

  push(ts: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = ts;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.length).sort();
  }
}

/** What a ledger sends to another process: per machine, its timestamps as base64 of a Float64Array. */
export type AcknowledgedReportsTransfer = Record<string, string>;

/** The reports the broker acknowledged, by machine: what a controller process keeps for the ledger. */
export class AcknowledgedReports {
  private readonly machines = new Map<string, TimestampList>();

  record(machineId: string, ts: number): void {
    let list = this.machines.get(machineId);
    if (!list) this.machines.set(machineId, (list = new TimestampList()));
    list.push(ts);
  }

  get size(): number {
    let size = 0;
    for (const list of this.machines.values()) size += list.length;
    return size;
  }

  /** Each machine's timestamps, oldest first (a report acknowledged twice appears twice). */
  byMachine(): Map<string, Float64Array> {
    return new Map([...this.machines].map(([machineId, list]) => [machineId, list.sorted()]));
  }

  transfer(): AcknowledgedReportsTransfer {
    const transfer: AcknowledgedReportsTransfer = {};
    for (const [machineId, timestamps] of this.byMachine()) {
      transfer[machineId] = Buffer.from(timestamps.buffer, timestamps.byteOffset, timestamps.byteLength).toString(
        'base64',
      );
    }
    return transfer;
  }

  /** Adds what another process's ledger transferred. */
  receive(transfer: AcknowledgedReportsTransfer): void {
    for (const [machineId, base64] of Object.entries(transfer)) {
      const bytes = Buffer.from(base64, 'base64');
      const timestamps = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
      for (const ts of timestamps) this.record(machineId, ts);
    }
  }
}

/** Runs a query on the product's database (PostgreSQL through pg, or PGlite once its server stopped): its rows. */
export type LedgerQuery = <Row>(text: string, values: unknown[]) => Promise<Row[]>;

/** One acknowledged report the database holds nowhere. */
export type MissingReport = { machineId: string; ts: number };

export type LedgerReading = {
  /** Distinct reports (machine and ts) the broker acknowledged. */
  acknowledged: number;
  /** Acknowledgements of a report already acknowledged (the same machine and ts): the server keeps it once. */
  acknowledgedAgain: number;
  /** Of the acknowledged: found as telemetry rows. */
  storedAsRows: number;
  /** Of the acknowledged: within the time range of one of the machine's packed days. */
  inPackedDays: number;
  /** Of the acknowledged: kept in the quarantine, by its reason. */
  setAside: Map<string, number>;
  /**
   * Messages of these machines the quarantine set aside without keeping them (more than its
   * few a minute per machine): counted by the server, not named. A missing report of such a
   * machine may be one of them.
   */
  setAsideUnkept: Map<string, number>;
  /** Telemetry rows of these machines that were never acknowledged (the broker took them, its acknowledgement lost in a drop-off). */
  storedNotAcknowledged: number;
  /** Acknowledged, found nowhere, oldest first. */
  missing: MissingReport[];
};

/** Machines whose stored reports are read in one query: a few hundred thousand rows at most in a long bench run. */
const MACHINES_PER_QUERY = 500;

/** Timestamps read back as ms since the epoch, exactly (a timestamptz keeps microseconds). */
const TS_MS = `(extract(epoch from ts) * 1000)::float8`;

/**
 * Looks for every acknowledged report in the database: telemetry rows, packed days, the
 * quarantine. Read once nothing is on its way any more (the caller waits for that).
 */
export async function readLedger(query: LedgerQuery, acknowledged: AcknowledgedReports): Promise<LedgerReading> {
  const reading: LedgerReading = {
    acknowledged: 0,
    acknowledgedAgain: 0,
    storedAsRows: 0,
    inPackedDays: 0,
    setAside: new Map(),
    setAsideUnkept: new Map(),
    storedNotAcknowledged: 0,
    missing: [],
  };
  const byMachine = acknowledged.byMachine();
  const machineIds = [...byMachine.keys()];
  for (let from = 0; from < machineIds.length; from += MACHINES_PER_QUERY) {
    const chunk = machineIds.slice(from, from + MACHINES_PER_QUERY);
    const [rows, packedDays, quarantined] = await Promise.all([
      query<{ machine_id: string; ts: number | string }>(
        `select machine_id, ${TS_MS} as ts from telemetry where machine_id = any($1::text[])`,
        [chunk],
      ),
      query<{ machine_id: string; first: number | string; last: number | string }>(
        `select machine_id, (extract(epoch from first_ts) * 1000)::float8 as first,
                (extract(epoch from last_ts) * 1000)::float8 as last
           from telemetry_days where machine_id = any($1::text[])`,
        [chunk],
      ),
      query<{ machine_id: string; reason: string; payload: string; not_kept: number | null }>(
        `select machine_id, reason, convert_from(payload_head, 'UTF8') as payload,
                (explanation ->> 'notKept')::int as not_kept
           from quarantined_messages where kind = 'telemetry' and machine_id = any($1::text[])`,
        [chunk],
      ),
    ]);
    const stored = groupTimestamps(rows.map((row) => [row.machine_id, Number(row.ts)]));
    const setAside = new Map<string, Map<number, string>>();
    for (const row of quarantined) {
      if (row.reason === 'rate_limited') {
        reading.setAsideUnkept.set(
          row.machine_id,
          (reading.setAsideUnkept.get(row.machine_id) ?? 0) + (row.not_kept ?? 1),
        );
        continue;
      }
      const ts = reportTs(row.payload);
      if (ts === undefined) continue;
      let machine = setAside.get(row.machine_id);
      if (!machine) setAside.set(row.machine_id, (machine = new Map()));
      machine.set(ts, row.reason);
    }
    for (const machineId of chunk) {
      const timestamps = byMachine.get(machineId)!;
      const rowsOfMachine = stored.get(machineId) ?? new Set<number>();
      const days = packedDays.filter((day) => day.machine_id === machineId);
      const matched = new Set<number>();
      let previous = Number.NaN;
      for (const ts of timestamps) {
        if (ts === previous) {
          reading.acknowledgedAgain += 1;
          continue;
        }
        previous = ts;
        reading.acknowledged += 1;
        const reason = setAside.get(machineId)?.get(ts);
        if (rowsOfMachine.has(ts)) {
          reading.storedAsRows += 1;
          matched.add(ts);
        } else if (days.some((day) => Number(day.first) <= ts && ts <= Number(day.last))) {
          reading.inPackedDays += 1;
        } else if (reason !== undefined) {
          reading.setAside.set(reason, (reading.setAside.get(reason) ?? 0) + 1);
        } else {
          reading.missing.push({ machineId, ts });
        }
      }
      reading.storedNotAcknowledged += rowsOfMachine.size - matched.size;
    }
  }
  reading.missing.sort((a, b) => a.ts - b.ts);
  return reading;
}

function groupTimestamps(pairs: [string, number][]): Map<string, Set<number>> {
  const grouped = new Map<string, Set<number>>();
  for (const [machineId, ts] of pairs) {
    let set = grouped.get(machineId);
    if (!set) grouped.set(machineId, (set = new Set()));
    set.add(ts);
  }
  return grouped;
}

/** The `ts` of a set-aside report's kept payload, if it is JSON with one. */
function reportTs(payload: string): number | undefined {
  try {
    const ts = (JSON.parse(payload) as { ts?: unknown }).ts;
    return typeof ts === 'number' ? ts : undefined;
  } catch {
    return undefined;
  }
}

/** The ledger's reading as lines to print: every figure by name, and the first missing reports by machine and time. */
export function describeLedger(reading: LedgerReading, { namedAtMost = 20 } = {}): string[] {
  const reasons = (counts: Map<string, number>) =>
    counts.size === 0 ? '0' : [...counts].map(([reason, count]) => `${reason} ${count}`).join(', ');
  const unkept = [...reading.setAsideUnkept.values()].reduce((sum, count) => sum + count, 0);
  const lines = [
    `acknowledged by the broker: ${reading.acknowledged} reports (machine and ts)`,
    `  stored as rows: ${reading.storedAsRows}`,
    `  in packed days: ${reading.inPackedDays}`,
    `  set aside in the quarantine: ${reasons(reading.setAside)}`,
    `  found nowhere: ${reading.missing.length}`,
    `acknowledged again (the same machine and ts; the server stores it once): ${reading.acknowledgedAgain}`,
    `stored, never acknowledged (taken by the broker, its acknowledgement lost in a drop-off): ${reading.storedNotAcknowledged}`,
    `set aside and not kept by the quarantine (counted, not named) for these machines: ${unkept}${unkept > 0 ? ` (${reading.setAsideUnkept.size} machines)` : ''}`,
  ];
  for (const report of reading.missing.slice(0, namedAtMost)) {
    lines.push(`  found nowhere: ${report.machineId} ts ${new Date(report.ts).toISOString()}`);
  }
  if (reading.missing.length > namedAtMost) lines.push(`  … and ${reading.missing.length - namedAtMost} more`);
  return lines;
}
