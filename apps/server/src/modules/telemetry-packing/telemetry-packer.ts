import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { addDays, localDate, localMidnight } from '../../time/local-day';
import type { TelemetryService } from '../telemetry';
import { packDayAsync } from './packed-day';
import { insertPackedDay, isPacked } from './telemetry-packing.repository';

export type PackOutcome = 'packed' | 'already packed' | 'no reports';

/**
 * Packs machines' past days of reports: each machine-day read, packed off the event loop, and
 * then stored in place of its rows in one short transaction of its own. Any number of server
 * instances may pack at once: a day's packed row is inserted only if none is there yet, and its
 * rows are deleted only by the instance whose insert took place; a kill at any moment leaves
 * either the rows or the packed day with all of them deleted, never neither.
 */
export class TelemetryPacker {
  private stopping = false;

  constructor(
    private readonly deps: {
      db: Database;
      telemetry: Pick<TelemetryService, 'rowsBetween' | 'deleteRowsAt' | 'oldestRowTime' | 'reportingMachineIds'>;
      timeZone: string;
      /** A day is packed once this many whole days have passed since it ended. */
      packAfterDays: number;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** Packs one machine's local calendar day (YYYY-MM-DD); a day already packed is left as it is. */
  async packDay(machineId: string, date: string): Promise<PackOutcome> {
    const { db, telemetry, timeZone } = this.deps;
    if (await isPacked(db, machineId, date)) return 'already packed';
    const rows = await telemetry.rowsBetween(
      db,
      machineId,
      localMidnight(timeZone, date),
      localMidnight(timeZone, addDays(date, 1)),
    );
    if (rows.length === 0) return 'no reports';
    const packed = await packDayAsync(rows);
    return db.transaction(async (tx) => {
      const stored = await insertPackedDay(tx, {
        machineId,
        day: date,
        packed,
        reportCount: rows.length,
        firstTs: new Date(rows[0]!.ts),
        lastTs: new Date(rows.at(-1)!.ts),
      });
      if (!stored) return 'already packed';
      // Exactly the rows packed: one that arrived since they were read stays a row.
      await telemetry.deleteRowsAt(
        tx,
        machineId,
        rows.map((row) => row.ts),
      );
      return 'packed';
    });
  }

  /**
   * Packs every machine's days that are due, oldest first, a machine-day at a time; the number
   * of days packed. A day that has rows though it is packed (reports that came late) is left:
   * the reader merges them.
   */
  async packDue(now: Date = new Date()): Promise<number> {
    const { db, telemetry, timeZone, packAfterDays } = this.deps;
    const dueBefore = localMidnight(timeZone, addDays(localDate(timeZone, now), -packAfterDays));
    let packedDays = 0;
    for (const machineId of await telemetry.reportingMachineIds(db)) {
      let from = new Date(0);
      for (;;) {
        if (this.stopping) return packedDays;
        const oldest = await telemetry.oldestRowTime(db, machineId, from, dueBefore);
        if (!oldest) break;
        const date = localDate(timeZone, oldest);
        if ((await this.packDay(machineId, date)) === 'packed') packedDays += 1;
        from = localMidnight(timeZone, addDays(date, 1));
      }
    }
    if (packedDays > 0) this.deps.logger.info({ packedDays }, 'telemetry packed');
    return packedDays;
  }

  /** Ends a run under way after the machine-day it is packing. */
  stop(): void {
    this.stopping = true;
  }
}
