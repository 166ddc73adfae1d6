import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { Button } from '@/ui/button';
import { backupStatusQueryOptions } from '../api/get-backup-status';
import { useDownloadBackup } from '../api/download-backup';
import { numberFormat } from '@/i18n/number-format';

/** Sizes as a farmer reads them: kB, MB, GB in the page's number format. */
function readableSize(bytes: number, locale: string): string {
  const units = ['B', 'kB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${numberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/**
 * The last backup's time and size, what the scheduled backups need, whether the backups hold the
 * server's secrets in the clear, and a button that takes one now and downloads it.
 */
export function BackupSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const dates = useDateTimeFormat();
  const { data } = useQuery(backupStatusQueryOptions());
  const download = useDownloadBackup();
  const last = data ? data.lastBackup : undefined;
  // What the scheduled backups (BACKUP_DIR) need: the last one failed, or none for two days.
  const warning = data ? data.warning : null;

  return (
    <section aria-labelledby="backup-last" className="flex flex-col gap-4 rounded-lg border border-line p-4">
      <h2 id="backup-last" className="text-lg font-semibold">
        {t('admin.backups.lastBackup')}
      </h2>
      {data === false && <p className="text-error">{t('admin.backups.loadFailed')}</p>}
      {warning && (
        <p role="alert" className="rounded-md border border-error p-3 text-error">
          {warning.kind === 'failed'
            ? t('admin.backups.failed', { error: warning.error })
            : t('admin.backups.overdue', { count: warning.days })}
        </p>
      )}
      {data && !data.encrypted && <p className="rounded-md border border-line p-3">{t('admin.backups.unencrypted')}</p>}
      {last === null && <p className="text-ink-muted">{t('admin.backups.never')}</p>}
      {last && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-ink-muted">{t('admin.backups.takenAt')}</dt>
          <dd>
            <time dateTime={new Date(last.takenAt).toISOString()}>{dates.dateTime(last.takenAt)}</time>
          </dd>
          <dt className="text-ink-muted">{t('admin.backups.size')}</dt>
          <dd>{readableSize(last.sizeBytes, locale)}</dd>
        </dl>
      )}
      <p className="text-sm text-ink-muted">{t('admin.backups.hint')}</p>
      <div>
        <Button variant="primary" disabled={download.isPending} onClick={() => void download.run()}>
          {download.isPending ? t('admin.backups.downloading') : t('admin.backups.download')}
        </Button>
      </div>
    </section>
  );
}
