import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { classifyWriteFailure, databaseMessage } from '../../db/errors';
import type { HealthProblem } from '../../http/health';
import { type TelemetryReport, insertTelemetry, updateLatestState } from './telemetry.repository';

const FLUSH_INTERVAL_MS = 100;
/** This many reports waiting are stored at once, without waiting for the interval. */
const FLUSH_AT = 2000;
/**
 * The most reports stored in one transaction. A batch waits for the one before it, so when they
 * come faster than the database takes them the batches grow up to this: the statements and the
 * latest-state upsert (a row per machine in the batch, whatever its size) are paid for once per
 * many more reports, and the store catches up.
 */
const MAX_BATCH = 10_000;
/** While the database is unreachable reports wait here; past this many the oldest are dropped. */
const MAX_BUFFERED = 200_000;
const RETRY_MS = 1000;
/** A report waits about FLUSH_INTERVAL_MS; one that waited this long means ingestion is behind. */
const BEHIND_MS = 5000;

type Buffered = { report: TelemetryReport; receivedAt: number; resolve: () => void; reject: (error: Error) => void };

/** Where a report the database refuses goes, with the database's words: it would be refused again every time. */
export type SetAsideRefused = (report: TelemetryReport, detail: string) => Promise<void>;

/**
 * Collects telemetry as it arrives and stores it in batches: one multi-row insert per batch
 * keeps up with thousands of reports a second where a row at a time would not. One report the
 * database refuses does not hold up the others: a refused batch is split to find it, and it is
 * set aside. A database that is away holds everything back, to be stored when it is back.
 */
export class TelemetryIngest {
  private buffer: Buffered[] = [];
  /** The batch being stored now, taken out of the buffer. */
  private storing: Buffered[] = [];
  /** When storing began to fail because the database is away; undefined while it works. */
  private failingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Whether a flush is storing the buffer now: it takes what arrives meanwhile too. */
  private draining = false;
  /** Reports this instance has received since it started, per machine. */
  private readonly receivedPerMachine = new Map<string, number>();
  private receivedInAll = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    private readonly setAside: SetAsideRefused,
  ) {}

  /** Resolves once the report is stored or set aside as refused; rejects if it was dropped unstored. */
  push(report: TelemetryReport): Promise<void> {
    this.receivedPerMachine.set(report.machineId, this.received(report.machineId) + 1);
    this.receivedInAll += 1;
    const stored = new Promise<void>((resolve, reject) =>
      this.buffer.push({ report, receivedAt: Date.now(), resolve, reject }),
    );
    if (this.buffer.length > MAX_BUFFERED) {
      const dropped = this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
      for (const entry of dropped) entry.reject(new Error('telemetry buffer full'));
      this.logger.error({ dropped: dropped.length }, 'telemetry buffer full; dropped the oldest reports');
    }
    if (this.buffer.length >= FLUSH_AT) {
      if (!this.draining) void this.flush();
    } else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
    return stored;
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
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.storeBuffered());
    return this.flushing;
  }

  /** What health reports of ingestion: stores failing, or reports waiting longer than they should. */
  problems(now = Date.now()): HealthProblem[] {
    const problems: HealthProblem[] = [];
    const waiting = this.storing.length + this.buffer.length;
    if (this.failingSince !== undefined) {
      problems.push({
        code: 'telemetry_store_failing',
        message: `storing telemetry has failed since ${new Date(this.failingSince).toISOString()}: ${waiting} reports wait in memory and are retried every second`,
      });
    }
    const oldest = Math.min(this.storing[0]?.receivedAt ?? now, this.buffer[0]?.receivedAt ?? now);
    if (now - oldest > BEHIND_MS) {
      problems.push({
        code: 'telemetry_behind',
        message: `telemetry reports have waited ${Math.round((now - oldest) / 1000)} s to be stored (${waiting} waiting)`,
      });
    }
    return problems;
  }

  private async storeBuffered(): Promise<void> {
    this.draining = true;
    try {
      while (this.buffer.length > 0) {
        this.storing = this.buffer.splice(0, MAX_BATCH);
        const unstored = await this.store(this.storing);
        this.storing = [];
        if (unstored.length > 0) {
          this.buffer.unshift(...unstored);
          this.failingSince ??= Date.now();
          this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
          return;
        }
        this.failingSince = undefined;
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Stores a batch in one transaction. When the database refuses it, the halves are tried in
   * turn, and theirs, down to the reports it refuses, which are set aside: one bad report costs
   * about 2·log2(batch) transactions, and the others are stored. Returns what could not be
   * stored now because the database is away, in order.
   */
  private async store(batch: Buffered[]): Promise<Buffered[]> {
    const reports = batch.map((entry) => entry.report);
    try {
      await this.db.transaction(async (tx) => {
        await insertTelemetry(tx, reports);
        await updateLatestState(tx, reports);
      });
    } catch (error) {
      if (await this.databaseIsAway(error)) {
        this.logger.error({ err: error }, 'storing telemetry failed; will retry');
        return batch;
      }
      if (batch.length === 1) {
        await this.setAsideRefused(batch[0]!, error);
        return [];
      }
      const middle = Math.ceil(batch.length / 2);
      const unstored = await this.store(batch.slice(0, middle));
      return unstored.length > 0 ? [...unstored, ...batch.slice(middle)] : this.store(batch.slice(middle));
    }
    for (const entry of batch) entry.resolve();
    return [];
  }

  /**
   * Whether a failure is the database's rather than these reports': told by its error code, or,
   * for an error without one, by whether a trivial query fails too.
   */
  private async databaseIsAway(error: unknown): Promise<boolean> {
    const failure = classifyWriteFailure(error);
    if (failure !== 'unknown') return failure === 'unavailable';
    try {
      await this.db.execute(sql`select 1`);
      return false;
    } catch {
      return true;
    }
  }

  /** A refused report is dealt with once set aside; if even that fails, it is dropped (and its sender told). */
  private async setAsideRefused(entry: Buffered, error: unknown): Promise<void> {
    const detail = databaseMessage(error);
    this.logger.warn(
      { machineId: entry.report.machineId, detail },
      'the database refused a telemetry report; set aside',
    );
    try {
      await this.setAside(entry.report, detail);
      entry.resolve();
    } catch (failure) {
      entry.reject(failure instanceof Error ? failure : new Error(String(failure)));
    }
  }
}
