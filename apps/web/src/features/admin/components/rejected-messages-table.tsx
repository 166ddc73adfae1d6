import type { QuarantinedMessage } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { Badge } from '@/ui/badge';
import { type Column, DataTable } from '@/ui/data-table';
import { adminKeys } from '../api/admin-keys';
import { useSprinklerNamesByInternalId } from '../api/get-all-sprinklers';
import { getQuarantinedMessages } from '../api/get-quarantined-messages';
import { quarantineDetailText } from '../lib/quarantine-explanation';
import { numberFormat } from '@/i18n/number-format';

/** New messages are set aside while an administrator looks for the cause: the list asks again this often. */
const REFRESH_MS = 15_000;

/**
 * The machine messages the server set aside instead of storing, newest first: from which
 * machine and device, when, why and its detail (both in the reader's language; a row kept before
 * the server gave codes shows its English detail) and the payload's beginning.
 * The payload is whatever a controller sent: it is shown as text only, never as markup.
 */
export function RejectedMessagesTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const names = useSprinklerNamesByInternalId();
  const dates = useDateTimeFormat();
  const bytes = numberFormat(locale);

  const columns: Column<QuarantinedMessage>[] = [
    {
      id: 'receivedAt',
      header: t('admin.rejected.columns.receivedAt'),
      cell: (message) => (
        <time dateTime={new Date(message.receivedAt).toISOString()} className="whitespace-nowrap">
          {dates.dateTimeToSecond(message.receivedAt)}
        </time>
      ),
    },
    {
      id: 'machine',
      header: t('admin.rejected.columns.machine'),
      className: 'min-w-40',
      cell: (message) => {
        const name = names.get(message.machineId);
        return (
          <span className="flex flex-col items-start gap-1">
            <span className="font-mono font-semibold break-all">{message.machineId}</span>
            {name && <span className="break-words">{name}</span>}
            <span className="text-ink-muted">
              {t(`admin.rejected.kinds.${message.kind}`)}
              {message.deviceId !== message.machineId && ` ${message.deviceId}`}
            </span>
          </span>
        );
      },
    },
    {
      id: 'reason',
      header: t('admin.rejected.columns.reason'),
      className: 'min-w-48',
      cell: (message) => (
        <span className="flex flex-col items-start gap-1">
          <Badge tone={message.reason === 'rate_limited' ? 'warning' : 'muted'}>
            {t(`admin.rejected.reasons.${message.reason}`)}
          </Badge>
          {/* The server's own English words stay on hover: a schema's message can say more than its code. */}
          <span className="break-words" title={message.explanation ? message.detail : undefined}>
            {quarantineDetailText(t, locale, message)}
          </span>
        </span>
      ),
    },
    {
      id: 'payload',
      header: t('admin.rejected.columns.payload'),
      className: 'sm:w-1/2',
      cell: (message) => {
        const size = bytes.format(message.payloadBytes);
        return (
          <span className="flex min-w-0 flex-col gap-1">
            <pre className="max-h-40 max-w-full overflow-auto rounded-md bg-surface-muted p-2 font-mono text-xs break-all whitespace-pre-wrap">
              {message.payloadPreview}
            </pre>
            <span className="text-xs text-ink-muted">
              {message.payloadTruncated
                ? t('admin.rejected.payloadTruncated', { size })
                : t('admin.rejected.payloadSize', { size })}
            </span>
          </span>
        );
      },
    },
  ];

  return (
    <DataTable
      label={t('admin.rejected.tableLabel')}
      columns={columns}
      queryKey={[...adminKeys.quarantine, 'page']}
      queryFn={({ page, pageSize }) => getQuarantinedMessages({ page, pageSize })}
      rowKey={(message) => message.id}
      refetchInterval={REFRESH_MS}
      emptyMessage={t('admin.rejected.empty')}
    />
  );
}
