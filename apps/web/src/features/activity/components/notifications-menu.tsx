import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { readAgain } from '@/lib/query-client';
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from '@/ui/dropdown';
import { IconButton } from '@/ui/icon-button';
import { BellIcon, ListIcon } from '@/ui/other-icons';
import { latestLogsQueryOptions, logsKeys } from '../api/get-logs';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkLogsRead } from '../api/mark-logs-read';
import { useLogEventText } from '../hooks/use-log-event-text';

const BADGE_LIMIT = 99;

/**
 * The bell with the unread count; opening it lists the newest events and marks read only those it
 * shows: the older unread ones stay unread on the activity page.
 */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const eventText = useLogEventText();
  const unread = useUnreadCount();
  const markRead = useMarkLogsRead();
  const [open, setOpen] = useState(false);
  const latest = useQuery(latestLogsQueryOptions(open));
  const dates = useDateTimeFormat();

  const onOpenChange = (opened: boolean) => {
    setOpen(opened);
    if (!opened) void readAgain({ queryKey: logsKeys.latest });
  };

  const entries = latest.data ? latest.data.data : [];
  const shownUnread = open ? entries.filter((entry) => entry.unread).map((entry) => entry.id) : [];
  // One call per list shown: its entries then stay highlighted, but unread no more, until it closes.
  const shownUnreadKey = shownUnread.join(',');
  useEffect(() => {
    if (shownUnread.length > 0) void markRead.run({ ids: shownUnread, refreshLatest: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- both are new on every render; the ids decide.
  }, [shownUnreadKey]);
  return (
    <Dropdown
      onOpenChange={onOpenChange}
      trigger={
        <IconButton label={unread > 0 ? t('notifications.openWithCount', { count: unread }) : t('notifications.open')}>
          <BellIcon />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="unread-badge"
              className="absolute -top-1 -right-1 min-w-5 rounded-full bg-danger px-1 text-center text-xs leading-5 font-bold text-on-danger"
            >
              {unread > BADGE_LIMIT ? `${BADGE_LIMIT}+` : unread}
            </span>
          )}
        </IconButton>
      }
    >
      <DropdownLabel>{t('notifications.title')}</DropdownLabel>
      {latest.isPending && <p className="px-3 py-2 text-sm text-ink-muted">{t('table.loading')}</p>}
      {latest.data && entries.length === 0 && (
        <p className="px-3 py-2 text-sm text-ink-muted">{t('notifications.empty')}</p>
      )}
      {entries.map((entry) => {
        const text = eventText(entry);
        return (
          <DropdownItem key={entry.id} to={paths.activity.link()}>
            <span className="flex flex-col gap-0.5 sm:w-80">
              <span className="flex items-baseline justify-between gap-3">
                <span className="flex items-center gap-2 font-semibold">
                  {entry.unread && <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-water" />}
                  {text.title}
                  {entry.unread && <span className="sr-only">{t('activity.unread')}</span>}
                </span>
                <time dateTime={new Date(entry.timestamp).toISOString()} className="shrink-0 text-xs text-ink-muted">
                  {dates.dateTime(entry.timestamp)}
                </time>
              </span>
              <span className="line-clamp-2 text-ink-muted">{text.subtitle}</span>
            </span>
          </DropdownItem>
        );
      })}
      <DropdownSeparator />
      <DropdownItem to={paths.activity.link()} icon={<ListIcon className="size-4" />}>
        {t('notifications.seeAll')}
      </DropdownItem>
    </Dropdown>
  );
}
