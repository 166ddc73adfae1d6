import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { addDays, localDate, localMidnight } from '../../time/local-day';
import { packDayAsync, unpackDayAsync } from './packed-day';
import { merged } from './stored-reports';
import { insertPackedDay, packedDay, replacePackedDay } from './telemetry-packing.repository';
import type { TelemetryPartitions } from './telemetry-partitions';
import { deleteRowsAt, oldestRowTime, reportingMachineIds, rowsBetween } from './telemetry.repository';

export type PackOutcome = 'packed' | 'repacked' | 'already packed' | 'no reports';

/**
 * Packs machines' past days of reports: each machine-day read, packed off the event loop, and
 * then stored in one short transaction of its own. Rows of a day partition stay until every
 * machine-day of the partition is packed, and then go with it, dropped whole
 * (telemetry-partitions.ts); rows of the DEFAULT partition are deleted as they are packed. Any
 * number of server instances may pack at once: a day's packed row is inserted only if none is
 * there yet (replaced only if unchanged since read), and rows are deleted only by the instance
 * whose write took place; a kill at any moment leaves either the rows or the packed day with
 * all of them, never neither.
 */
export class TelemetryPacker {
  private stopping = false;

  constructor(
    private readonly deps: {
      db: Database;
      partitions: TelemetryPartitions;
      timeZone: string;
      /** A day is packed once this many whole days have passed since it ended. */
      packAfterDays: number;
      /** Reports of days that ended more than this many whole days ago go, packed or not; null keeps all. */
      retentionDays?: number | null;
      logger: FastifyBaseLogger;
    },
  ) {}

  /**
   * Packs one machine's local calendar day (YYYY-MM-DD). A day already packed is left as it is,
   * unless reports of it came late: they are packed in with the others ('repacked'), so its
   * partition can go.
   */
  async packDay(machineId: string, date: string): Promise<PackOutcome> {
    const { db, timeZone } = this.deps;
    const rows = await rowsBetween(
      db,
      machineId,
      localMidnight(timeZone, date),
      localMidnight(timeZone, addDays(date, 1)),
    );
    const known = await packedDay(db, machineId, date);
    if (rows.length === 0) return known ? 'already packed' : 'no reports';
    const reports = known ? merged(await unpackDayAsync(known.packed), rows) : rows;
    if (known && reports.length === known.reportCount) {
      // Every row is a packed report (a day partition's, or a late repeat): a repeat in the DEFAULT partition goes.
      await deleteRowsAt(
        db,
        machineId,
        rows.map((row) => row.ts),
      );
      return 'already packed';
    }
    const packed = await packDayAsync(reports);
    return db.transaction(async (tx) => {
      const values = {
        machineId,
        day: date,
        packed,
        reportCount: reports.length,
        firstTs: new Date(reports[0]!.ts),
        lastTs: new Date(reports.at(-1)!.ts),
      };
      const stored = known ? await replacePackedDay(tx, values, known) : await insertPackedDay(tx, values);
      if (!stored) return 'already packed';
      // Exactly the rows packed: one that arrived since they were read stays a row.
      await deleteRowsAt(
        tx,
        machineId,
        rows.map((row) => row.ts),
      );
      return known ? 'repacked' : 'packed';
    });
  }

  /**
   * Packs every machine's days that are due, oldest first, a machine-day at a time, then drops
   * the day partitions that are wholly packed, applies the retention, and makes the partitions
   * of the days ahead; the number of days packed (or repacked).
   */
  async packDue(now: Date = new Date()): Promise<number> {
    const { db, partitions, timeZone, packAfterDays, retentionDays, logger } = this.deps;
    const today = localDate(timeZone, now);
    const dueDate = addDays(today, -packAfterDays);
    const dueBefore = localMidnight(timeZone, dueDate);
    await partitions.ensureAhead(now);
    let packedDays = 0;
    for (const machineId of await reportingMachineIds(db)) {
      let from = new Date(0);
      for (;;) {
        if (this.stopping) return packedDays;
        const oldest = await oldestRowTime(db, machineId, from, dueBefore);
        if (!oldest) break;
        const date = localDate(timeZone, oldest);
        const outcome = await this.packDay(machineId, date);
        if (outcome === 'packed' || outcome === 'repacked') packedDays += 1;
        from = localMidnight(timeZone, addDays(date, 1));
      }
    }
    if (this.stopping) return packedDays;
    const dropped = await partitions.dropPacked(dueDate);
    if (packedDays > 0 || dropped.length > 0) logger.info({ packedDays, dropped }, 'telemetry packed');
    if (retentionDays) {
      const gone = await partitions.dropBefore(addDays(today, -retentionDays));
      if (gone.partitions + gone.packedDays + gone.rows > 0) logger.info(gone, 'telemetry past its retention deleted');
    }
    return packedDays;
  }

  /** Ends a run under way after the machine-day it is packing. */
  stop(): void {
    this.stopping = true;
  }
}
