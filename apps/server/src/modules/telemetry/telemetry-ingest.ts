import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { type TelemetryReport, insertTelemetry, updateLatestState } from './telemetry.repository';

const FLUSH_INTERVAL_MS = 100;
const MAX_BATCH = 2000;
/** While the database is unreachable reports wait here; past this many the oldest are dropped. */
const MAX_BUFFERED = 200_000;

/**
 * Collects telemetry as it arrives and stores it in batches: one multi-row insert per batch
 * keeps up with thousands of reports a second where a row at a time would not.
 */
export class TelemetryIngest {
  private buffer: TelemetryReport[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Reports this instance has received since it started, per machine. */
  private readonly receivedPerMachine = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
  ) {}

  push(report: TelemetryReport): void {
    this.receivedPerMachine.set(report.machineId, this.received(report.machineId) + 1);
    this.buffer.push(report);
    if (this.buffer.length > MAX_BUFFERED) {
      const dropped = this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
      this.logger.error({ dropped: dropped.length }, 'telemetry buffer full; dropped the oldest reports');
    }
    if (this.buffer.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  received(machineId: string): number {
    return this.receivedPerMachine.get(machineId) ?? 0;
  }

  /** Stores everything received so far; resolves once it is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.storeBuffered());
    return this.flushing;
  }

  private async storeBuffered(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, MAX_BATCH);
      try {
        await this.db.transaction(async (tx) => {
          await insertTelemetry(tx, batch);
          await updateLatestState(tx, batch);
        });
      } catch (error) {
        this.buffer.unshift(...batch);
        this.logger.error({ err: error }, 'storing telemetry failed; will retry');
        this.timer ??= setTimeout(() => void this.flush(), 1000);
        return;
      }
    }
  }
}
