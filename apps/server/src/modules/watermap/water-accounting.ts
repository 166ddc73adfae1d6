import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { localDate } from '../../time/local-day';
import { RepeatingJob } from '../../time/repeating-job';
import type { SprinklersService } from '../sprinklers';
import type { StoredReport, StoredReports } from '../telemetry';
import { type DayOfYear, dayOfYear } from './day-of-year';
import { type CellWater, RoundGrid } from './round-grid';
import { TimeSlicer } from '../../time/time-slicer';
import { type NoWedge, type WaterReport, sweptWedge, waterOnWedge, wedgePieces } from './water-grid';
import {
  type MachineWater,
  type ProgressMove,
  addWaterOfMachines,
  addWaterProgress,
  advanceWaterProgress,
  claimWaterProgress,
  waterProgressOfMachines,
} from './watermap.repository';

/** Grid cell size of the watermap, metres. */
export const WATER_GRID_STEP_M = 10;
/** Reports may arrive a little out of order: count only those older than this. */
const SETTLE_MS = 10_000;
/**
 * The background runs write a machine's water once this much of it has gathered, not at every
 * run: each cell written is a new row version in the WAL, and a round every 15 s rewrote a cell
 * under a slowly turning arm 15 to 60 times a pass (14.5 MB of WAL a machine-hour, 145 GB an
 * hour at 10,000 machines). Ten minutes is about the time a real pivot's end takes to cross a
 * 10 m cell, so a cell is written about once a pass. The watermap adds the water not written
 * yet when it is asked for (`uncounted`); the water balance takes it once written.
 */
export const WRITE_EVERY_MS = 10 * 60_000;
/**
 * The most of a machine's water not written yet that a watermap counts on the fly: more than
 * this is a backlog (after a restart or an outage) that the runs are counting.
 */
const UNCOUNTED_AT_MOST_MS = 3 * WRITE_EVERY_MS;
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
/**
 * Machines whose first reports are read in one query: at 250 reports each at most, a read of
 * the machines of a fleet whose accounting is up to date brings a report or two of each.
 */
const MACHINES_PER_READ = 200;
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

/** A run: up to when it counts, and how much water a machine must have gathered to be counted. */
type Run = { until: Date; holdMs: number };

/** What one round counted for a machine, ready to be written. */
type Round = {
  machineId: string;
  /** Where the machine's progress was when the round was counted: where it starts. */
  from: Date;
  grid: RoundGrid;
  /** The local day of every pair counted: the day the first report of the pair was sent. */
  day: DayOfYear;
  /** The timestamp of the last report counted, where the next round starts. */
  lastTs: number;
  /** Pairs no arm could have swept, counted as gaps. */
  implausible: number;
  more: boolean;
};

/** The progress of a machine never counted (as `addWaterProgress` writes it): its reports all count. */
const NEVER_COUNTED = new Date(0);

function settled(): Date {
  return new Date(Date.now() - SETTLE_MS);
}

/**
 * Turns stored telemetry into water on each machine's grid, a round at a time. A run comes every
 * 15 s and counts the machines that have gathered `WRITE_EVERY_MS` of reports since they were
 * last counted, so a machine's water is written every ten minutes or so. The reports are
 * read and spread over the grid outside any transaction, in slices that hand the event loop back
 * every few milliseconds, and then written in a short transaction that first takes the progress
 * rows of the machines it writes. The statements serve many machines each (their first reports,
 * their progress, their water): a fleet's accounting costs a few statements a run, not a few
 * per machine. Every server instance runs it; if another one holds a machine or has counted it
 * since this one read its progress, that machine's round is thrown away, so each report is
 * counted once however many instances there are.
 */
export class WaterAccounting {
  private readonly job: RepeatingJob<Run>;
  /** Per machine: when its implausible pairs were last logged, and how many since. */
  private readonly implausible = new Map<string, { loggedAt: number; pairs: number }>();

  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'machineIds'>;
      /** Reads report rows and packed days alike. */
      reports: Pick<StoredReports, 'between' | 'firstPages'>;
      timeZone: string;
      logger: FastifyBaseLogger;
    },
    intervalMs = 15_000,
  ) {
    this.job = new RepeatingJob((run = { until: settled(), holdMs: WRITE_EVERY_MS }) => this.countAll(run), {
      everyMs: intervalMs,
      onError: (error) => deps.logger.error({ err: error }, 'water accounting failed'),
    });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /**
   * Counts what has arrived for every added machine up to `until` (settled reports by default),
   * however little each has gathered; resolves when done.
   */
  runOnce(until = settled()): Promise<void> {
    return this.job.runNow({ until, holdMs: 0 });
  }

  /**
   * The water of the machine's reports that no run has written yet, up to its newest report, a
   * round per local day: none for a machine behind by more than a few runs, whose backlog the
   * runs are counting. A machine never counted is counted from its first report when that is
   * recent (a machine just added), so its water shows at once, not a run or two later.
   */
  async uncounted(machineId: string): Promise<{ day: DayOfYear; cells: CellWater[] }[]> {
    const until = new Date();
    const recent = until.getTime() - UNCOUNTED_AT_MOST_MS;
    const from = (await waterProgressOfMachines(this.deps.db, [machineId])).get(machineId) ?? NEVER_COUNTED;
    const neverCounted = from.getTime() === NEVER_COUNTED.getTime();
    if (!neverCounted && from.getTime() < recent) return [];
    const slicer = new TimeSlicer(SLICE_MS);
    const days: { day: DayOfYear; cells: CellWater[] }[] = [];
    let next: Date | undefined = from;
    while (next) {
      const firstPage = await this.firstPage(machineId, next, until);
      if (next === from && neverCounted && (firstPage[0]?.ts ?? Infinity) < recent) return [];
      const round = await this.count(machineId, next, until, firstPage, slicer);
      if (!round) break;
      days.push({ day: round.day, cells: round.grid.rows(0, round.grid.size) });
      next = round.more ? new Date(round.lastTs) : undefined;
    }
    return days;
  }

  private async firstPage(machineId: string, from: Date, until: Date): Promise<StoredReport[]> {
    const pages = await this.deps.reports.firstPages(this.deps.db, [{ machineId, from }], until, REPORTS_PER_READ);
    return pages.get(machineId) ?? [];
  }

  /**
   * Every machine's progress is read in one query as the run begins, not one query per machine
   * (those counted less than `holdMs` before `until` wait for a later run). A progress another instance moved since is caught where the round is written (the claim),
   * and that round is thrown away, as when it moves while this one counts. Each pass counts a
   * round of every machine left; a machine with a long backlog is counted in several rounds of
   * bounded size, a pass each.
   */
  private async countAll({ until, holdMs }: Run): Promise<void> {
    const slicer = new TimeSlicer(SLICE_MS);
    const machineIds = await this.deps.sprinklers.machineIds();
    const progress = await waterProgressOfMachines(this.deps.db, machineIds);
    await addWaterProgress(
      this.deps.db,
      machineIds.filter((machineId) => !progress.has(machineId)),
    );
    const gatheredSince = until.getTime() - holdMs;
    let left = machineIds
      .map((machineId) => ({ machineId, from: progress.get(machineId) ?? NEVER_COUNTED }))
      .filter(({ from }) => from.getTime() <= gatheredSince);
    while (left.length > 0) {
      const next: { machineId: string; from: Date }[] = [];
      for (let offset = 0; offset < left.length; offset += MACHINES_PER_READ) {
        next.push(...(await this.countMachines(left.slice(offset, offset + MACHINES_PER_READ), until, slicer)));
      }
      left = next;
    }
  }

  /**
   * A round of each machine, written together once their rows would pass a round's bound; where
   * the next round of each machine that may have more to count starts.
   */
  private async countMachines(
    machines: { machineId: string; from: Date }[],
    until: Date,
    slicer: TimeSlicer,
  ): Promise<{ machineId: string; from: Date }[]> {
    const firstPages = await this.deps.reports.firstPages(this.deps.db, machines, until, REPORTS_PER_READ);
    const more: { machineId: string; from: Date }[] = [];
    let rounds: Round[] = [];
    let rows = 0;
    const writeRounds = async () => {
      for (const round of await this.write(rounds, slicer)) {
        this.warnImplausible(round.machineId, round.implausible);
        if (round.more) more.push({ machineId: round.machineId, from: new Date(round.lastTs) });
      }
      rounds = [];
      rows = 0;
    };
    for (const { machineId, from } of machines) {
      if (slicer.due()) await slicer.pause();
      const round = await this.count(machineId, from, until, firstPages.get(machineId) ?? [], slicer);
      if (!round) continue;
      if (rows > 0 && rows + round.grid.size > ROWS_PER_ROUND) await writeRounds();
      rounds.push(round);
      rows += round.grid.size;
    }
    await writeRounds();
    return more;
  }

  /**
   * Writes rounds: the progress of those without water (machines at rest) moves in one statement
   * without a transaction; the others' water and progress are written in one transaction that
   * first takes their progress rows. The rounds written: not those of a machine another instance
   * held or had counted since its progress was read (its count stands).
   */
  private async write(rounds: Round[], slicer: TimeSlicer): Promise<Round[]> {
    const move = (round: Round): ProgressMove => ({
      machineId: round.machineId,
      from: round.from,
      to: new Date(round.lastTs),
    });
    const resting = rounds.filter((round) => round.grid.size === 0);
    const moved = await advanceWaterProgress(this.deps.db, resting.map(move));
    const watering = rounds.filter((round) => round.grid.size > 0);
    const written =
      watering.length === 0
        ? []
        : await this.deps.db.transaction(async (tx) => {
            const claimed = await claimWaterProgress(
              tx,
              watering.map((round) => round.machineId),
            );
            const mine = watering.filter((round) => claimed.get(round.machineId)?.getTime() === round.from.getTime());
            const cells = mine.flatMap((round) =>
              Array.from({ length: Math.ceil(round.grid.size / ROWS_PER_WRITE) }, (_, index) => ({ round, index })),
            );
            // A few dozen cells a statement, of one machine or several.
            let batch: MachineWater[] = [];
            let size = 0;
            for (const { round, index } of cells) {
              const part = round.grid.rows(index * ROWS_PER_WRITE, (index + 1) * ROWS_PER_WRITE);
              batch.push({ machineId: round.machineId, date: round.day, cells: part });
              size += part.length;
              if (size >= ROWS_PER_WRITE) {
                await addWaterOfMachines(tx, batch);
                if (slicer.due()) await slicer.pause();
                batch = [];
                size = 0;
              }
            }
            await addWaterOfMachines(tx, batch);
            await advanceWaterProgress(tx, mine.map(move));
            return mine;
          });
    return [...resting.filter((round) => moved.has(round.machineId)), ...written];
  }

  /**
   * Spreads the water of the machine's reports after `from` over the grid, up to a round's
   * worth, starting with its first page of reports (read with other machines'); undefined when
   * there is no new pair of reports.
   */
  private async count(
    machineId: string,
    from: Date,
    until: Date,
    firstPage: StoredReport[],
    slicer: TimeSlicer,
  ): Promise<Round | undefined> {
    const grid = new RoundGrid();
    let previous: WaterReport | undefined;
    let date: string | undefined;
    let pairs = 0;
    let implausible = 0;
    const round = (lastTs: number, more: boolean): Round => ({
      machineId,
      from,
      grid,
      day: dayOfYear(new Date(`${date!}T00:00:00Z`)),
      lastTs,
      implausible,
      more,
    });
    for await (const page of this.pages(machineId, from, until, firstPage)) {
      if (slicer.due()) await slicer.pause();
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
   * The machine's reports from `from` up to `until`, a page at a time. The first page, read
   * before, asked for the whole range (for a machine counted up to date it holds a report or
   * two); each one after it asks for a stretch of time about twice what the one before took,
   * not the rest of the range: PGlite never analyses its tables, and without statistics the
   * planner sorts every report in the range for each page, which made counting a season's
   * backlog five times slower.
   */
  private async *pages(
    machineId: string,
    from: Date,
    until: Date,
    firstPage: StoredReport[],
  ): AsyncGenerator<WaterReport[]> {
    let after = from.getTime();
    let spanMs = Infinity;
    let page = firstPage;
    for (;;) {
      const pageUntil = Math.min(until.getTime(), after + spanMs);
      yield page;
      const last = page.at(-1)?.ts ?? after;
      if (page.length === REPORTS_PER_READ) spanMs = Math.max(MIN_PAGE_SPAN_MS, 2 * (last - page[0]!.ts));
      else if (pageUntil === until.getTime()) return;
      else spanMs *= 2;
      after = last;
      page = await this.deps.reports.between(
        this.deps.db,
        machineId,
        new Date(after),
        new Date(Math.min(until.getTime(), after + spanMs)),
        REPORTS_PER_READ,
      );
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
      if (slicer.due()) await slicer.pause();
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
