import { type BackupStatus, backupsEndpoints } from '@pivot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** The newest backup the server took: when, and how large. */
export function getBackupStatus(): Promise<BackupStatus | false> {
  return callEndpoint(backupsEndpoints.status, {});
}

export function backupStatusQueryOptions() {
  return queryOptions({ queryKey: adminKeys.backupStatus, queryFn: getBackupStatus });
}
