import type { Database } from '../../db/client';
import { addDays, localMidnight } from '../../time/local-day';
import type { TelemetryRow, TelemetryService } from '../telemetry';

/** A machine's reports of one local calendar day, oldest first. */
export type ReportsOfDay = { date: string; reports: TelemetryRow[] };

/**
 * The one reader of a machine's stored reports over a range, whatever form they are kept in:
 * every report a machine sent is read through here, so no reader misses a day kept in another
 * form.
 */
export class StoredReports {
  constructor(
    private readonly deps: {
      db: Database;
      telemetry: Pick<TelemetryService, 'rowsBetween'>;
      timeZone: string;
    },
  ) {}

  /**
   * The machine's reports of each local calendar day (YYYY-MM-DD, in the server's time zone)
   * from `firstDate` to `lastDate`, both included, a day at a time: never more than one day in
   * memory, however long the range. Days without reports are skipped.
   */
  async *ofDays(machineId: string, firstDate: string, lastDate: string): AsyncGenerator<ReportsOfDay> {
    const { db, telemetry, timeZone } = this.deps;
    for (let date = firstDate; date <= lastDate; date = addDays(date, 1)) {
      const reports = await telemetry.rowsBetween(
        db,
        machineId,
        localMidnight(timeZone, date),
        localMidnight(timeZone, addDays(date, 1)),
      );
      if (reports.length > 0) yield { date, reports };
    }
  }
}
