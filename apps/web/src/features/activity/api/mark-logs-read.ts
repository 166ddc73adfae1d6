import { type LogReadRequest, logsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { logsKeys } from './get-logs';

export type MarkLogsReadInput = {
  /** The entries the user was shown; without them, everything logged so far. */
  ids?: LogReadRequest['ids'];
  /** An open notifications list keeps its highlights (false) until it closes, so the user sees what was new. */
  refreshLatest: boolean;
};

/** Marks entries read: the ones shown, or the whole log. */
export async function markLogsRead({ ids, refreshLatest }: MarkLogsReadInput): Promise<boolean> {
  const body: LogReadRequest | undefined = ids ? { ids } : undefined;
  const done = (await callEndpoint(logsEndpoints.markRead, { body })) !== false;
  if (done) {
    await readAgain({
      queryKey: logsKeys.all,
      predicate: (query) => refreshLatest || query.queryKey[1] !== logsKeys.latest[1],
    });
  }
  return done;
}

export function useMarkLogsRead() {
  return useAction(markLogsRead);
}
