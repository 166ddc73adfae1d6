import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { HealthProblem } from '../http/health';
import type { Database, Queryable } from './client';
import { classifyWriteFailure, databaseMessage } from './errors';

const FLUSH_INTERVAL_MS = 100;
/** This many items waiting are stored at once, without waiting for the interval. */
const FLUSH_AT = 2000;
/**
 * The most items stored in one transaction. A batch waits for the one before it, so when they
 * come faster than the database takes them the batches grow up to this: the statements (and,
 * for telemetry, the latest-state upsert, a row per machine whatever the batch's size) are paid
 * for once per many more items, and the store catches up.
 */
const MAX_BATCH = 10_000;
/** While the database is unreachable items wait here; past this many the oldest are dropped. */
const MAX_BUFFERED = 200_000;
const RETRY_MS = 1000;
/** An item waits about FLUSH_INTERVAL_MS; one that waited this long means storing is behind. */
const BEHIND_MS = 5000;

type Buffered<Item> = { item: Item; receivedAt: number; resolve: () => void; reject: (error: Error) => void };

export type BatchedWritesSettings<Item> = {
  /** What is stored, as health and the log name it: `telemetry` gives the codes telemetry_store_failing and telemetry_behind. */
  name: string;
  /** What one item is called in health's sentences, plural: `reports`, `readings`. */
  items: string;
  /** Stores a batch, within the transaction it is given; an item already stored is skipped. */
  write: (tx: Queryable, items: Item[]) => Promise<void>;
  /** Where an item the database refuses goes, with the database's words: it would be refused again every time. */
  setAside: (item: Item, detail: string) => Promise<void>;
  /** What the log says of a refused item (its machine, its device). */
  describe: (item: Item) => Record<string, unknown>;
};

/**
 * Collects what machines report as it arrives and stores it in batches: one multi-row insert
 * per batch keeps up with thousands of items a second where a row at a time would not. One item
 * the database refuses does not hold up the others: a refused batch is split to find it, and it
 * is set aside. A database that is away holds everything back, to be stored when it is back.
 * What a push's promise resolves for is stored (or set aside), so it may be acknowledged.
 */
export class BatchedWrites<Item> {
  private buffer: Buffered<Item>[] = [];
  /** The batch being stored now, taken out of the buffer. */
  private storing: Buffered<Item>[] = [];
  /** When storing began to fail because the database is away; undefined while it works. */
  private failingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Whether a flush is storing the buffer now: it takes what arrives meanwhile too. */
  private draining = false;

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    private readonly settings: BatchedWritesSettings<Item>,
  ) {}

  /** Resolves once the item is stored or set aside as refused; rejects if it was dropped unstored. */
  push(item: Item): Promise<void> {
    const stored = new Promise<void>((resolve, reject) =>
      this.buffer.push({ item, receivedAt: Date.now(), resolve, reject }),
    );
    if (this.buffer.length > MAX_BUFFERED) {
      const dropped = this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
      for (const entry of dropped) entry.reject(new Error(`${this.settings.name} buffer full`));
      this.logger.error({ dropped: dropped.length }, `${this.settings.name} buffer full; dropped the oldest`);
    }
    if (this.buffer.length >= FLUSH_AT) {
      if (!this.draining) void this.flush();
    } else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
    return stored;
  }

  /** Stores everything received so far; resolves once it is in the database (or, with the database away, back in the buffer). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.storeBuffered());
    return this.flushing;
  }

  /** What health reports of storing: the database failing, or items waiting longer than they should. */
  problems(now = Date.now()): HealthProblem[] {
    const { name, items } = this.settings;
    const problems: HealthProblem[] = [];
    const waiting = this.storing.length + this.buffer.length;
    if (this.failingSince !== undefined) {
      problems.push({
        code: `${name}_store_failing`,
        message: `storing ${name} has failed since ${new Date(this.failingSince).toISOString()}: ${waiting} ${items} wait in memory and are retried every second`,
      });
    }
    const oldest = Math.min(this.storing[0]?.receivedAt ?? now, this.buffer[0]?.receivedAt ?? now);
    if (now - oldest > BEHIND_MS) {
      problems.push({
        code: `${name}_behind`,
        message: `${name} ${items} have waited ${Math.round((now - oldest) / 1000)} s to be stored (${waiting} waiting)`,
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
   * turn, and theirs, down to the items it refuses, which are set aside: one bad item costs
   * about 2·log2(batch) transactions, and the others are stored. Returns what could not be
   * stored now because the database is away, in order.
   */
  private async store(batch: Buffered<Item>[]): Promise<Buffered<Item>[]> {
    const items = batch.map((entry) => entry.item);
    try {
      await this.db.transaction((tx) => this.settings.write(tx, items));
    } catch (error) {
      if (await this.databaseIsAway(error)) {
        this.logger.error({ err: error }, `storing ${this.settings.name} failed; will retry`);
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
   * Whether a failure is the database's rather than these items': told by its error code, or,
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

  /** A refused item is dealt with once set aside; if even that fails, it is dropped (and its sender told). */
  private async setAsideRefused(entry: Buffered<Item>, error: unknown): Promise<void> {
    const detail = databaseMessage(error);
    this.logger.warn(
      { ...this.settings.describe(entry.item), detail },
      `the database refused ${this.settings.name}; set aside`,
    );
    try {
      await this.settings.setAside(entry.item, detail);
      entry.resolve();
    } catch (failure) {
      entry.reject(failure instanceof Error ? failure : new Error(String(failure)));
    }
  }
}
