import { queryClient } from '@/lib/query-client';

/** Query keys of the admin panel's lists; the data table adds its paging, sort and search. */
export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  sprinklers: ['admin', 'sprinklers'] as const,
};

/**
 * After an administrator changed something, every list on screen may show it (both admin
 * lists, a machine's name elsewhere, the bell's count of new log entries): all active queries
 * are fetched again.
 */
export function refreshAfterAdminChange(): Promise<void> {
  return queryClient.invalidateQueries();
}
