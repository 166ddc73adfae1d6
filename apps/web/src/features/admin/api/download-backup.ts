import { backupsEndpoints } from '@pivot/contracts';
import { pathOf } from '@/lib/api-client';
import { downloadApiFile } from '@/lib/download-file';
import { readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { adminKeys } from './admin-keys';

/** Has the server take a backup now and hands the file to the browser to save. */
export async function downloadBackup(): Promise<boolean> {
  const saved = await downloadApiFile({ path: pathOf(backupsEndpoints.download), fallbackName: 'pivot.pivotbackup' });
  await readAgain({ queryKey: adminKeys.backupStatus });
  return saved;
}

export function useDownloadBackup() {
  return useAction(downloadBackup);
}
