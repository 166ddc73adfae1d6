import { type LogListResponse, LogQuerySchema, logsEndpoints } from '@pivot/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';

export const logsQueryInputSchema = LogQuerySchema;
export type LogsQueryInput = z.input<typeof logsQueryInputSchema>;

/** Query keys of the activity log: everything under `all` is refreshed once entries are marked read. */
export const logsKeys = {
  all: ['logs'] as const,
  list: (type: 'all' | 'unread', farm: number | null) => ['logs', 'list', type, farm] as const,
  latest: ['logs', 'latest'] as const,
  unreadCount: ['logs', 'unread-count'] as const,
};

/** One page of the signed-in user's log, newest first. */
export function getLogs(input: LogsQueryInput): Promise<LogListResponse | false> {
  return callEndpoint(logsEndpoints.list, { query: logsQueryInputSchema.parse(input) });
}

export const LATEST_LOGS_COUNT = 4;

/** The few newest events shown under the notifications button. */
export function latestLogsQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: logsKeys.latest,
    queryFn: () => getLogs({ type: 'all', pageSize: LATEST_LOGS_COUNT }),
    enabled,
    staleTime: 0,
  });
}
