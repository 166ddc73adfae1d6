import type { Database, Queryable } from '../../db/client';
import { addDays, localDate, localMidnight } from '../../time/local-day';
import { unpackDayAsync } from './packed-day';
import {
  type PackedDayInfo,
  firstPackedDayStart,
  machinesWithPackedDays,
  packedBytes,
  packedDaysOverlapping,
} from './telemetry-packing.repository';
import {
  type StoredReport,
  type TelemetryRow,
  oldestRowTime,
  reportsBetween,
  reportsOfMachinesBetween,
  rowsBetween,
} from './telemetry.repository';

/** A machine's reports of one local calendar day, oldest first. */
export type ReportsOfDay = { date: string; reports: TelemetryRow[] };

/** Unpacked days kept for the next read: the water accounting reads a day in pages of 250. */
const UNPACKED_DAYS_KEPT = 4;

/**
 * THE reader of a machine's stored reports over a range, whatever form each day is kept in:
 * report rows (`telemetry`), packed days (`telemetry_days`), or both for a packed day that got
 * a late report. Every module that reads reports over a range reads them here, so none misses
 * a packed day. A report is its machine and timestamp: one in both forms (a late repeat of a
 * packed report) is given once, as packed, the form it was first stored in.
 */
export class StoredReports {
  private readonly unpacked = new Map<string, Promise<TelemetryRow[]>>();

  constructor(private readonly deps: { db: Database; timeZone: string }) {}

  /**
   * The machine's reports of each local calendar day (YYYY-MM-DD, in the server's time zone)
   * from `firstDate` to `lastDate`, both included, a day at a time: never more than one day in
   * memory, however long the range. Days without reports are skipped.
   */
  async *ofDays(machineId: string, firstDate: string, lastDate: string): AsyncGenerator<ReportsOfDay> {
    const { timeZone } = this.deps;
    const end = localMidnight(timeZone, addDays(lastDate, 1));
    let date = firstDate;
    while (date <= lastDate) {
      // Straight to the next day that may hold a report: a range of years costs its days with reports.
      const next = await this.nextReportTime(machineId, localMidnight(timeZone, date), end);
      if (!next) return;
      const nextDate = localDate(timeZone, next);
      if (nextDate > date) date = nextDate;
      const reports = await this.during(
        machineId,
        localMidnight(timeZone, date),
        localMidnight(timeZone, addDays(date, 1)),
      );
      if (reports.length > 0) yield { date, reports };
      date = addDays(date, 1);
    }
  }

  /** No later than the machine's first report from `from` to `before` (excluded); null when it has none. */
  private async nextReportTime(machineId: string, from: Date, before: Date): Promise<Date | null> {
    const { db } = this.deps;
    const row = await oldestRowTime(db, machineId, from, before);
    const packedDay = await firstPackedDayStart(db, machineId, from, before);
    const packed = packedDay && (packedDay < from ? from : packedDay);
    if (!row || !packed) return row ?? packed;
    return row < packed ? row : packed;
  }

  /** Every report of the machine from `from` (included) to `before` (excluded), oldest first. */
  async during(machineId: string, from: Date, before: Date): Promise<TelemetryRow[]> {
    const { db } = this.deps;
    const rows = await rowsBetween(db, machineId, from, before);
    const days = await packedDaysOverlapping(db, machineId, from, new Date(before.getTime() - 1));
    if (days.length === 0) return rows;
    const packed: TelemetryRow[] = [];
    for (const day of days) {
      for (const report of await this.unpack(db, machineId, day)) {
        if (report.ts >= from.getTime() && report.ts < before.getTime()) packed.push(report);
      }
    }
    return merged(packed, rows);
  }

  /**
   * The machine's first `limit` reports from `from` up to `until`, both included, oldest first:
   * what the water accounting reads, a page at a time.
   */
  async between(db: Queryable, machineId: string, from: Date, until: Date, limit: number): Promise<StoredReport[]> {
    const rows = await reportsBetween(db, machineId, from, until, limit);
    // Past the last row of a full page, a packed report could not be among the first `limit`.
    const bound = rows.length === limit ? rows.at(-1)!.ts : until.getTime();
    const days = await packedDaysOverlapping(db, machineId, from, new Date(bound));
    if (days.length === 0) return rows;
    const packed: StoredReport[] = [];
    for (const day of days) {
      // Days are disjoint: once `limit` reports are found, a day starting after them adds none.
      if (packed.length >= limit && day.firstTs.getTime() > packed[limit - 1]!.ts) break;
      for (const report of await this.unpack(db, machineId, day)) {
        if (report.ts >= from.getTime() && report.ts <= bound) {
          const { ts, status, angle, distance, flow } = report;
          packed.push({ ts, status, angle, distance, flow });
        }
      }
      packed.sort((a, b) => a.ts - b.ts);
    }
    return merged(packed, rows).slice(0, limit);
  }

  /**
   * `between` for many machines at once, each from its own `from`: what the water accounting
   * reads first for every machine of a run. Their report rows are read in one query; a machine
   * with a packed day in its range (rare: packed days are past ones) is read on its own, after
   * the rows, as `between` does, so that a day packed meanwhile is seen in one form or the other.
   */
  async firstPages(
    db: Queryable,
    ranges: { machineId: string; from: Date }[],
    until: Date,
    limit: number,
  ): Promise<Map<string, StoredReport[]>> {
    const pages = await reportsOfMachinesBetween(db, ranges, until, limit);
    const packed = await machinesWithPackedDays(db, ranges, until);
    for (const { machineId, from } of ranges) {
      if (packed.has(machineId)) pages.set(machineId, await this.between(db, machineId, from, until, limit));
    }
    return pages;
  }

  private unpack(db: Queryable, machineId: string, day: PackedDayInfo): Promise<TelemetryRow[]> {
    // A packed day never changes once stored: what identifies it identifies its reports.
    const key = `${machineId}\u0000${day.day}\u0000${day.firstTs.getTime()}\u0000${day.reportCount}`;
    let reports = this.unpacked.get(key);
    if (!reports) {
      reports = packedBytes(db, machineId, day.day).then((bytes) => (bytes ? unpackDayAsync(bytes) : []));
      this.unpacked.set(key, reports);
      reports.catch(() => this.unpacked.delete(key));
      if (this.unpacked.size > UNPACKED_DAYS_KEPT) this.unpacked.delete(this.unpacked.keys().next().value!);
    } else {
      // Most recently used last.
      this.unpacked.delete(key);
      this.unpacked.set(key, reports);
    }
    return reports;
  }
}

/** Two lists of reports, each oldest first, as one; a timestamp in both is taken from `first`. */
export function merged<Report extends { ts: number }>(first: Report[], second: Report[]): Report[] {
  const result: Report[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const a = first[i];
    const b = second[j];
    if (b === undefined || (a !== undefined && a.ts <= b.ts)) {
      if (b !== undefined && a!.ts === b.ts) j += 1;
      result.push(a!);
      i += 1;
    } else {
      result.push(b);
      j += 1;
    }
  }
  return result;
}
