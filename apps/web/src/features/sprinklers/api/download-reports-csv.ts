import { ReportsCsvQuerySchema, machineHistoryEndpoints } from '@pivot/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadFile, pathOf } from '@/lib/api-client';

export type ReportsRange = { start: string; stop: string };

/** Downloads the machine's reports from `start` to `stop` (dd.mm.yyyy, both days included) as CSV. */
export function downloadReportsCsv(id: number, range: ReportsRange): Promise<boolean> {
  return downloadFile({
    path: pathOf(machineHistoryEndpoints.reportsCsv, { id }),
    query: ReportsCsvQuerySchema.parse(range),
    fallbackName: `reports-${range.start}-${range.stop}.csv`,
  });
}

/** The download as an action: pending while the file is being written and fetched. */
export function useDownloadReportsCsv(id: number) {
  return useMutation({ mutationFn: (range: ReportsRange) => downloadReportsCsv(id, range) });
}
