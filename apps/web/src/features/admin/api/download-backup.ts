import { apiFile } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { saveFile } from '../lib/save-file';
import { adminKeys } from './admin-keys';

/** Has the server take a backup now and hands the file to the browser to save. */
export async function downloadBackup(): Promise<boolean> {
  const file = await apiFile('/admin/backup/');
  await queryClient.invalidateQueries({ queryKey: adminKeys.backupStatus });
  if (!file) return false;
  saveFile(file.fileName ?? 'pivot.pivotbackup', file.blob);
  return true;
}

export function useDownloadBackup() {
  return useAction(downloadBackup);
}
