import { readAgain } from '@/lib/query-client';

/** Query keys of the admin panel's lists; the data table adds its paging, sort and search. */
export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  sprinklers: ['admin', 'sprinklers'] as const,
  /** Every machine at once (not a page), to name each registered controller's machine. */
  allSprinklers: ['admin', 'all-sprinklers'] as const,
  devices: ['admin', 'devices'] as const,
  brokerAccounts: ['admin', 'broker-accounts'] as const,
  quarantine: ['admin', 'quarantine'] as const,
  alertDefaults: ['admin', 'alert-defaults'] as const,
  backupStatus: ['admin', 'backup-status'] as const,
  /** Every farm, to place a machine in one. */
  farms: ['admin', 'farms'] as const,
};

/**
 * After an administrator changed something, every list on screen may show it (both admin
 * lists, a machine's name elsewhere, the bell's count of new log entries): all active queries
 * are fetched again.
 */
export function refreshAfterAdminChange(): Promise<void> {
  return readAgain();
}
