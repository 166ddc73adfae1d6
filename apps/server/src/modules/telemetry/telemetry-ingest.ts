import type { FastifyBaseLogger } from 'fastify';
import { BatchedWrites } from '../../db/batched-writes';
import type { Database } from '../../db/client';
import type { HealthProblem } from '../../http/health';
import { type TelemetryReport, insertTelemetry, updateLatestState } from './telemetry.repository';

/** Where a report the database refuses goes, with the database's words: it would be refused again every time. */
export type SetAsideRefused = (report: TelemetryReport, detail: string) => Promise<void>;

/**
 * Collects telemetry as it arrives and stores it in batches (see BatchedWrites): the reports and
 * each machine's latest state in one transaction per batch. Counts what this instance received.
 */
export class TelemetryIngest {
  private readonly writes: BatchedWrites<TelemetryReport>;
  /** Reports this instance has received since it started, per machine. */
  private readonly receivedPerMachine = new Map<string, number>();
  private receivedInAll = 0;

  constructor(db: Database, logger: FastifyBaseLogger, setAside: SetAsideRefused) {
    this.writes = new BatchedWrites(db, logger, {
      name: 'telemetry',
      items: 'reports',
      write: async (tx, reports) => {
        await insertTelemetry(tx, reports);
        await updateLatestState(tx, reports);
      },
      setAside,
      describe: (report) => ({ machineId: report.machineId }),
    });
  }

  /** Resolves once the report is stored or set aside as refused; rejects if it was dropped unstored. */
  push(report: TelemetryReport): Promise<void> {
    this.receivedPerMachine.set(report.machineId, this.received(report.machineId) + 1);
    this.receivedInAll += 1;
    return this.writes.push(report);
  }

  received(machineId: string): number {
    return this.receivedPerMachine.get(machineId) ?? 0;
  }

  /** Reports this instance has received since it started, of every machine. */
  receivedTotal(): number {
    return this.receivedInAll;
  }

  /** Stores everything received so far; resolves once it is in the database (or, with the database away, back in the buffer). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** What health reports of ingestion: stores failing, or reports waiting longer than they should. */
  problems(now = Date.now()): HealthProblem[] {
    return this.writes.problems(now);
  }
}
