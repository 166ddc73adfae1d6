import { type BackupStatus, BackupStatusSchema } from '@pivot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** The newest backup the server took: when, and how large. */
export function getBackupStatus(): Promise<BackupStatus | false> {
  return apiCall({ method: 'GET', path: '/admin/backup/status/', response: BackupStatusSchema });
}

export function backupStatusQueryOptions() {
  return queryOptions({ queryKey: adminKeys.backupStatus, queryFn: getBackupStatus });
}
