import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { localDate } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import type { TelemetryService } from '../telemetry';
import { parseCellKey, waterBetween } from './water-grid';
import { type WaterCellRow, addWater, claimWaterProgress, setWaterProgress } from './watermap.repository';

/** Grid cell size of the watermap, metres. */
export const WATER_GRID_STEP_M = 10;
const DAYS_IN_LONGEST_MONTH = 31;
/** Reports may arrive a little out of order: count only those older than this. */
const SETTLE_MS = 10_000;
const REPORTS_PER_RUN = 20_000;

/**
 * Turns stored telemetry into water on each machine's grid, a machine at a time. Every server
 * instance runs it; a machine's progress row is locked while it is counted, so each report is
 * counted once however many instances there are.
 */
export class WaterAccounting {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'machineIds'>;
      telemetry: Pick<TelemetryService, 'reportsBetween'>;
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

  private async countAll(until: Date): Promise<void> {
    for (const machineId of await this.deps.sprinklers.machineIds()) {
      while (await this.countMachine(machineId, until)) {
        // A machine with a long backlog is counted in several transactions of bounded size.
      }
    }
  }

  /** True when there may be more to count for the machine. */
  private countMachine(machineId: string, until: Date): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const processedUntil = await claimWaterProgress(tx, machineId);
      if (!processedUntil) return false;
      const reports = await this.deps.telemetry.reportsBetween(tx, machineId, processedUntil, until, REPORTS_PER_RUN);
      if (reports.length < 2) return false;
      const rows = new Map<string, WaterCellRow>();
      for (let index = 1; index < reports.length; index += 1) {
        const from = reports[index - 1]!;
        const date = localDate(this.deps.timeZone, from.ts);
        const month = `${date.slice(0, 8)}01`;
        const day = Number(date.slice(8, 10));
        for (const [key, depth] of waterBetween(from, reports[index]!, WATER_GRID_STEP_M)) {
          const rowKey = `${month}/${key}`;
          let row = rows.get(rowKey);
          if (!row) {
            const [x, y] = parseCellKey(key);
            row = { machineId, month, x, y, days: new Array<number>(DAYS_IN_LONGEST_MONTH).fill(0), total: 0 };
            rows.set(rowKey, row);
          }
          row.days[day - 1]! += depth;
          row.total += depth;
        }
      }
      // Each row holds what fell on each day; the grid keeps running sums (see waterCells).
      for (const row of rows.values()) toRunningSums(row.days);
      await addWater(tx, [...rows.values()]);
      await setWaterProgress(tx, machineId, new Date(reports.at(-1)!.ts));
      return reports.length === REPORTS_PER_RUN;
    });
  }
}

/** Turns amounts per day into running sums in place: day d then holds days 1…d together. */
function toRunningSums(days: number[]): void {
  for (let index = 1; index < days.length; index += 1) days[index]! += days[index - 1]!;
}
