import { MessageResponseSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { logsKeys } from './get-logs';

/**
 * Marks everything logged so far as read. An open notifications list keeps its highlights
 * (`refreshLatest: false`) until it closes, so the user sees what was new.
 */
export async function markLogsRead({ refreshLatest }: { refreshLatest: boolean }): Promise<boolean> {
  const done = (await apiCall({ method: 'POST', path: '/logs/read/', response: MessageResponseSchema })) !== false;
  if (done) {
    await queryClient.invalidateQueries({
      queryKey: logsKeys.all,
      predicate: (query) => refreshLatest || query.queryKey[1] !== logsKeys.latest[1],
    });
  }
  return done;
}

export function useMarkLogsRead() {
  return useAction(markLogsRead);
}
