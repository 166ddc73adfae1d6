import type { LogEntry } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useCurrentFarm } from '@/lib/current-farm';
import { Button } from '@/ui/button';
import { type Column, DataTable } from '@/ui/data-table';
import { CheckIcon } from '@/ui/other-icons';
import { getLogs, logsKeys } from '../api/get-logs';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkLogsRead } from '../api/mark-logs-read';
import { useLogEventText } from '../hooks/use-log-event-text';

type Filter = 'all' | 'unread';
const FILTERS: readonly Filter[] = ['all', 'unread'];

/** The account's activity: All or Unread, newest first, paged on the server; of the farm switched to, or all. */
export function ActivityLog() {
  const { t } = useTranslation();
  const eventText = useLogEventText();
  const unread = useUnreadCount();
  const markRead = useMarkLogsRead();
  const [filter, setFilter] = useState<Filter>('all');
  const [farm] = useCurrentFarm();
  const dates = useDateTimeFormat();

  const columns: Column<LogEntry>[] = [
    {
      id: 'date',
      header: t('activity.columns.date'),
      cell: (entry) => (
        <time dateTime={new Date(entry.timestamp).toISOString()}>{dates.dateTime(entry.timestamp)}</time>
      ),
      className: 'whitespace-nowrap',
    },
    {
      id: 'event',
      header: t('activity.columns.event'),
      cell: (entry) => (
        <span className="inline-flex items-center gap-2 font-medium">
          {entry.unread && (
            <span className="size-2.5 shrink-0 rounded-full bg-water">
              <span className="sr-only">{t('activity.unread')}</span>
            </span>
          )}
          {eventText(entry).title}
        </span>
      ),
    },
    {
      id: 'machine',
      header: t('activity.columns.machine'),
      cell: (entry) => entry.sprinklerName ?? entry.sprinklerInternalId ?? '—',
    },
    {
      id: 'details',
      header: t('activity.columns.details'),
      cell: (entry) =>
        entry.dealerName
          ? `${eventText(entry).subtitle} · ${t('activity.forDealer', { dealer: entry.dealerName })}`
          : eventText(entry).subtitle,
    },
    { id: 'ip', header: t('activity.columns.ip'), cell: (entry) => entry.ip || '—', className: 'whitespace-nowrap' },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label={t('activity.filter')}
          className="inline-flex rounded-lg border border-line bg-surface p-1"
        >
          {FILTERS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={filter === option}
              onClick={() => setFilter(option)}
              className="h-9 min-w-[88px] rounded-md px-4 text-sm font-semibold aria-pressed:bg-primary aria-pressed:text-on-primary"
            >
              {t(`activity.filters.${option}`)}
            </button>
          ))}
        </div>
        <Button
          variant="secondary"
          icon={<CheckIcon className="size-4" />}
          disabled={unread === 0 || markRead.isPending}
          onClick={() => void markRead.run({ refreshLatest: true })}
        >
          {t('activity.markAllRead')}
        </Button>
      </div>
      <DataTable
        label={t('activity.tableLabel')}
        columns={columns}
        queryKey={logsKeys.list(filter, farm)}
        queryFn={({ page, pageSize }) =>
          getLogs({ type: filter, page, pageSize, ...(farm === null ? {} : { farm: String(farm) }) })
        }
        rowKey={(entry) => entry.id}
        rowClassName={(entry) => (entry.unread ? 'bg-water-soft/50' : '')}
        emptyMessage={filter === 'unread' ? t('activity.emptyUnread') : t('activity.empty')}
      />
    </div>
  );
}
