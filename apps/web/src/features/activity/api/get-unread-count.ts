import { queryOptions, useQuery } from '@tanstack/react-query';
import { getLogs, logsKeys } from './get-logs';

/** New events arrive without the user doing anything: the badge looks again every minute. */
const UNREAD_POLL_MS = 60_000;

/** How many entries the user has not read: the count of a one-row page of unread entries. */
export async function getUnreadCount(): Promise<number | false> {
  const page = await getLogs({ type: 'unread', pageSize: 1 });
  return page && page.count;
}

export function unreadCountQueryOptions() {
  return queryOptions({ queryKey: logsKeys.unreadCount, queryFn: getUnreadCount, refetchInterval: UNREAD_POLL_MS });
}

export function useUnreadCount(): number {
  const { data } = useQuery(unreadCountQueryOptions());
  return data || 0;
}
