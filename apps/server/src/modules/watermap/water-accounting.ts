import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { localDate } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import type { StoredReports } from '../telemetry-packing';
import { type DayOfYear, dayOfYear } from './day-of-year';
import { RoundGrid } from './round-grid';
import { TimeSlicer } from './time-slicer';
import { type NoWedge, type WaterReport, sweptWedge, waterOnWedge, wedgePieces } from './water-grid';
import {
  addWater,
  advanceWaterProgress,
  claimWaterProgress,
  setWaterProgress,
  waterProgressOfMachines,
} from './watermap.repository';

/** Grid cell size of the watermap, metres. */
export const WATER_GRID_STEP_M = 10;
/** Reports may arrive a little out of order: count only those older than this. */
const SETTLE_MS = 10_000;
/**
 * How much one round counts before it writes; a round counts one local day at most (the grid
 * adds a day's water to a cell in one step). The grid rows bound the write transaction, which
 * on PGlite holds every other query back: 10,000 rows take about a second there, and one pair
 * adds at most ~7,000 (600 m of arc at 2,000 m). An arm up to ~550 m fits its circle in a
 * round; a 2,000 m arm writes its circle over several.
 */
const PAIRS_PER_ROUND = 20_000;
const ROWS_PER_ROUND = 10_000;
/**
 * PGlite runs each query on the event loop's thread: 250 reports read or 50 grid rows written
 * take about 5 ms there, so the accounting can pause between them.
 */
const REPORTS_PER_READ = 250;
const ROWS_PER_WRITE = 50;
const MIN_PAGE_SPAN_MS = 1000;
/**
 * Half a millisecond of computing (ten times that before the JIT has compiled it): the widest
 * pair the bound lets through, 600 m of arc at 2,000 m, is 7 pieces.
 */
const CELLS_PER_PIECE = 1_000;
/**
 * The work between two turns of the event loop. A slice runs this plus the step that crosses it
 * (a piece of a wedge, a query) and now and then a garbage collection: about 15 ms of the
 * thread's time at most, where 50 ms is the limit.
 */
const SLICE_MS = 5;
const IMPLAUSIBLE_WARNING_EVERY_MS = 60_000;

/** What one round counted for a machine, ready to be written. */
type Round = {
  grid: RoundGrid;
  /** The local day of every pair counted: the day the first report of the pair was sent. */
  day: DayOfYear;
  /** The timestamp of the last report counted, where the next round starts. */
  lastTs: number;
  /** Pairs no arm could have swept, counted as gaps. */
  implausible: number;
  more: boolean;
};

/**
 * Turns stored telemetry into water on each machine's grid, a machine at a time, a round at a
 * time: the reports are read and spread over the grid outside any transaction, in slices that
 * hand the event loop back every few milliseconds, and then written in a short transaction
 * that first takes the machine's progress row. Every server instance runs it; if another one
 * holds the machine or has counted it since this one read its progress, this round is thrown
 * away, so each report is counted once however many instances there are.
 */
export class WaterAccounting {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /** Per machine: when its implausible pairs were last logged, and how many since. */
  private readonly implausible = new Map<string, { loggedAt: number; pairs: number }>();

  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'machineIds'>;
      /** Reads report rows and packed days alike. */
      reports: Pick<StoredReports, 'between'>;
      timeZone: string;
      logger: FastifyBaseLogger;
    },
    private readonly intervalMs = 15_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Counts what has arrived for every added machine; resolves when done. */
  runOnce(until: Date = new Date(Date.now() - SETTLE_MS)): Promise<void> {
    const run = this.running.then(() => this.countAll(until));
    this.running = run.catch((error: unknown) => this.deps.logger.error({ err: error }, 'water accounting failed'));
    return run;
  }

  /**
   * Every machine's progress is read in one query as the run begins, not one query per machine:
   * a progress another instance moved since is caught where the round is written (the claim),
   * and that round is thrown away, as when it moves while this one counts.
   */
  private async countAll(until: Date): Promise<void> {
    const slicer = new TimeSlicer(SLICE_MS);
    const machineIds = await this.deps.sprinklers.machineIds();
    const progress = await waterProgressOfMachines(this.deps.db, machineIds);
    for (const machineId of machineIds) {
      let from: Date | undefined = progress.get(machineId) ?? new Date(0);
      while (from) {
        // A machine with a long backlog is counted in several rounds of bounded size.
        from = await this.countMachine(machineId, from, until, slicer);
      }
    }
  }

  /** Where the machine's next round starts when there may be more to count for it; undefined when not. */
  private async countMachine(
    machineId: string,
    from: Date,
    until: Date,
    slicer: TimeSlicer,
  ): Promise<Date | undefined> {
    await slicer.pause();
    const round = await this.count(machineId, from, until, slicer);
    if (!round) return undefined;
    const written =
      round.grid.size === 0
        ? // No water (a machine at rest): only its progress moves, without a transaction.
          await advanceWaterProgress(this.deps.db, machineId, from, new Date(round.lastTs))
        : await this.write(machineId, from, round, slicer);
    if (!written) return undefined;
    this.warnImplausible(machineId, round.implausible);
    return round.more ? new Date(round.lastTs) : undefined;
  }

  /** Writes a round's water and moves the machine's progress, in one transaction; false if another instance counted it. */
  private write(machineId: string, from: Date, round: Round, slicer: TimeSlicer): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      // Held by another instance, or counted by one since `from` was read: its count stands. A
      // machine whose progress was read (any `from` but the start of time) has its row already.
      const claimed = await claimWaterProgress(tx, machineId, from.getTime() !== 0);
      if (claimed?.getTime() !== from.getTime()) return false;
      for (let offset = 0; offset < round.grid.size; offset += ROWS_PER_WRITE) {
        await addWater(tx, machineId, round.day, round.grid.rows(offset, offset + ROWS_PER_WRITE));
        await slicer.pause();
      }
      await setWaterProgress(tx, machineId, new Date(round.lastTs));
      return true;
    });
  }

  /**
   * Spreads the water of the machine's reports after `from` over the grid, up to a round's
   * worth; undefined when there is no new pair of reports.
   */
  private async count(machineId: string, from: Date, until: Date, slicer: TimeSlicer): Promise<Round | undefined> {
    const grid = new RoundGrid();
    let previous: WaterReport | undefined;
    let date: string | undefined;
    let pairs = 0;
    let implausible = 0;
    const round = (lastTs: number, more: boolean): Round => ({
      grid,
      day: dayOfYear(new Date(`${date!}T00:00:00Z`)),
      lastTs,
      implausible,
      more,
    });
    for await (const page of this.pages(machineId, from, until)) {
      await slicer.pause();
      for (const report of page) {
        // Each page starts with the last report of the one before.
        if (previous && report.ts <= previous.ts) continue;
        if (previous) {
          const pairDate = localDate(this.deps.timeZone, previous.ts);
          // The next day is the next round's: it starts from this pair's first report.
          if (date !== undefined && pairDate !== date) return round(previous.ts, true);
          date = pairDate;
          if ((await this.spread(grid, previous, report, slicer)) === 'implausible') implausible += 1;
          pairs += 1;
        }
        previous = report;
        if (pairs === PAIRS_PER_ROUND || grid.size >= ROWS_PER_ROUND) return round(report.ts, true);
      }
    }
    return pairs === 0 ? undefined : round(previous!.ts, false);
  }

  /**
   * The machine's reports from `from` up to `until`, a page at a time. The first page asks for
   * the whole range (for a machine counted up to date it holds a report or two); each one after
   * it asks for a stretch of time about twice what the one before took, not the rest of the
   * range: PGlite never analyses its tables, and without statistics the planner sorts every
   * report in the range for each page, which made counting a season's backlog five times slower.
   */
  private async *pages(machineId: string, from: Date, until: Date): AsyncGenerator<WaterReport[]> {
    let after = from.getTime();
    let spanMs = Infinity;
    for (;;) {
      const pageUntil = Math.min(until.getTime(), after + spanMs);
      const page = await this.deps.reports.between(
        this.deps.db,
        machineId,
        new Date(after),
        new Date(pageUntil),
        REPORTS_PER_READ,
      );
      yield page;
      const last = page.at(-1)?.ts ?? after;
      if (page.length === REPORTS_PER_READ) spanMs = Math.max(MIN_PAGE_SPAN_MS, 2 * (last - page[0]!.ts));
      else if (pageUntil === until.getTime()) return;
      else spanMs *= 2;
      after = last;
    }
  }

  /** Adds the water of a pair of reports to the grid, a piece of its wedge at a time. */
  private async spread(
    grid: RoundGrid,
    from: WaterReport,
    to: WaterReport,
    slicer: TimeSlicer,
  ): Promise<NoWedge | 'counted'> {
    const wedge = sweptWedge(from, to, WATER_GRID_STEP_M);
    if (typeof wedge === 'string') return wedge;
    for (const piece of wedgePieces(wedge, WATER_GRID_STEP_M, CELLS_PER_PIECE)) {
      waterOnWedge(piece, WATER_GRID_STEP_M, (x, y, depth) => grid.add(x, y, depth));
      await slicer.pause();
    }
    return 'counted';
  }

  /**
   * Pairs no arm could have swept are a controller's fault for its operator to look into, not
   * an emergency: one warning a minute at most per machine, with how many since the last.
   */
  private warnImplausible(machineId: string, pairs: number): void {
    if (pairs === 0) return;
    const entry = this.implausible.get(machineId) ?? { loggedAt: -Infinity, pairs: 0 };
    entry.pairs += pairs;
    const now = Date.now();
    if (now - entry.loggedAt >= IMPLAUSIBLE_WARNING_EVERY_MS) {
      this.deps.logger.warn(
        { machineId, pairs: entry.pairs },
        'report pairs whose arm would have swept faster or further than any arm can: counted as gaps in the data',
      );
      entry.loggedAt = now;
      entry.pairs = 0;
    }
    this.implausible.set(machineId, entry);
  }
}
