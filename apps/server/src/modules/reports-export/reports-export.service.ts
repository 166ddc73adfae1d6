import { type ReportsCsvQuery, parseDottedDate } from '@pivot/contracts';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import type { StoredReports } from '../telemetry';
import { CSV_HEADER, csvRecord } from './reports-csv';

/** Records written to the response at a time: about 50 kB. */
const RECORDS_PER_CHUNK = 1_000;

export type ReportsFile = { filename: string; chunks: AsyncGenerator<string> };

/** A user's own data, out: a machine's stored reports over a range of days as CSV. */
export class ReportsExportService {
  constructor(
    private readonly deps: {
      sprinklers: Pick<SprinklersService, 'accessible'>;
      storedReports: Pick<StoredReports, 'ofDays'>;
    },
  ) {}

  /**
   * The CSV of the machine's reports from `start` to `stop` (local calendar days, both
   * included), written as it is read, a day at a time. A machine the user may not see is
   * refused before anything is written.
   */
  async reportsCsv(user: SignedInUser, sprinklerId: number, query: ReportsCsvQuery): Promise<ReportsFile> {
    const sprinkler = await this.deps.sprinklers.accessible(user, sprinklerId);
    const first = isoDate(query.start);
    const last = isoDate(query.stop);
    return {
      filename: `${sprinkler.name} ${query.start}-${query.stop}.csv`,
      chunks: this.csv(sprinkler.internalId, first, last),
    };
  }

  private async *csv(machineId: string, first: string, last: string): AsyncGenerator<string> {
    yield CSV_HEADER;
    for await (const { reports } of this.deps.storedReports.ofDays(machineId, first, last)) {
      for (let start = 0; start < reports.length; start += RECORDS_PER_CHUNK) {
        let chunk = '';
        for (const report of reports.slice(start, start + RECORDS_PER_CHUNK)) chunk += `${csvRecord(report)}\r\n`;
        yield chunk;
      }
    }
  }
}

/** dd.mm.yyyy (checked by the query's schema) as YYYY-MM-DD. */
function isoDate(dotted: string): string {
  return parseDottedDate(dotted)!.toISOString().slice(0, 10);
}
