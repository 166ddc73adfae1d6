import type { Device } from '@pivot/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { Button } from '@/ui/button';
import { type Column, DataTable } from '@/ui/data-table';
import { IconButton } from '@/ui/icon-button';
import { KeyIcon, TrashIcon, WarningIcon } from '@/ui/other-icons';
import { localTablePage } from '@/ui/local-table-page';
import { adminKeys } from '../api/admin-keys';
import { useSprinklerNamesByInternalId } from '../api/get-all-sprinklers';
import { getDevices } from '../api/get-devices';
import { useDeviceActions } from '../hooks/use-device-actions';
import { BrokerAccountsPanel } from './broker-accounts-panel';
import { DeviceSecretDialog } from './device-secret-dialog';
import { RegisterDeviceButton } from './register-device-button';

/** A controller's last connection changes while an administrator watches it connect: the list asks again this often. */
const REFRESH_MS = 15_000;

const SORT_VALUES: Record<string, (device: Device) => string | number | null> = {
  machineId: (device) => device.machineId,
  secretCreatedAt: (device) => device.secretCreatedAt,
  lastConnectedAt: (device) => device.lastConnectedAt,
  lastRefusedAt: (device) => device.lastRefusedAt,
};

/** The new secret of a controller, shown once; dropped from state as its dialog closes. */
type ShownSecret = { machineId: string; secret: string };

/**
 * The machines' controllers registered on the broker: when each one's secret was made, when and
 * from where it last connected or was refused; a new secret or removal from each row.
 */
export function DevicesSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const headingId = useId();
  const names = useSprinklerNamesByInternalId();
  const actions = useDeviceActions();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const dates = useDateTimeFormat();
  const time = (timestamp: number) => (
    <time dateTime={new Date(timestamp).toISOString()} className="whitespace-nowrap">
      {dates.dateTime(timestamp)}
    </time>
  );

  const newSecret = async (machineId: string) => {
    const replaced = await actions.newSecret(machineId);
    if (replaced) setShown({ machineId: replaced.device.machineId, secret: replaced.secret });
  };

  const columns: Column<Device>[] = [
    {
      id: 'machineId',
      header: t('admin.devices.columns.controller'),
      sortable: true,
      className: 'min-w-48',
      cell: (device) => {
        const name = names.get(device.machineId);
        return (
          <span className="flex flex-col items-start gap-1">
            <span className="font-mono font-semibold break-all">{device.machineId}</span>
            <span className={name ? 'break-words' : 'text-ink-muted'}>{name ?? t('admin.devices.notAdded')}</span>
            {!device.onBroker && (
              <span className="flex items-start gap-1.5 font-medium text-warning">
                <WarningIcon className="mt-0.5 size-4 shrink-0" />
                {t('admin.devices.lostOnBroker')}
              </span>
            )}
          </span>
        );
      },
    },
    {
      id: 'secretCreatedAt',
      header: t('admin.devices.columns.secretCreatedAt'),
      sortable: true,
      cell: (device) => time(device.secretCreatedAt),
    },
    {
      id: 'lastConnectedAt',
      header: t('admin.devices.columns.lastConnectedAt'),
      sortable: true,
      cell: (device) =>
        device.lastConnectedAt === null ? (
          <span className="text-ink-muted">{t('admin.devices.neverConnected')}</span>
        ) : (
          <span className="flex flex-col items-start">
            {time(device.lastConnectedAt)}
            {device.lastAddress && (
              <span className="text-ink-muted break-all">
                {t('admin.devices.fromAddress', { address: device.lastAddress })}
              </span>
            )}
          </span>
        ),
    },
    {
      id: 'lastRefusedAt',
      header: t('admin.devices.columns.lastRefusedAt'),
      sortable: true,
      cell: (device) => {
        if (device.lastRefusedAt === null) return '—';
        // Refused since it last got in: the controller still tries a wrong or old secret.
        const unresolved = device.lastConnectedAt === null || device.lastRefusedAt > device.lastConnectedAt;
        return unresolved ? (
          <span className="flex flex-col items-start text-warning">
            <span className="inline-flex items-center gap-1.5 font-medium">
              <WarningIcon className="size-4 shrink-0" />
              {time(device.lastRefusedAt)}
            </span>
            <span>{t('admin.devices.refusedAfterConnection')}</span>
          </span>
        ) : (
          time(device.lastRefusedAt)
        );
      },
    },
    {
      id: 'actions',
      header: t('admin.devices.columns.actions'),
      className: 'whitespace-nowrap',
      cell: (device) => (
        <span className="flex gap-1">
          <Button
            variant="secondary"
            icon={<KeyIcon className="size-4" />}
            aria-label={t('admin.devices.newSecret.label', { id: device.machineId })}
            title={t('admin.devices.newSecret.label', { id: device.machineId })}
            disabled={actions.isPending}
            onClick={() => void newSecret(device.machineId)}
          >
            {t('admin.devices.newSecret.action')}
          </Button>
          <IconButton
            label={t('admin.devices.remove.label', { id: device.machineId })}
            disabled={actions.isPending}
            onClick={() => void actions.removeCredentials(device.machineId)}
            className="hover:text-error"
          >
            <TrashIcon className="size-4" />
          </IconButton>
        </span>
      ),
    },
  ];

  return (
    <section aria-labelledby={headingId} className="mt-2 flex flex-col gap-4 border-t border-line pt-8">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex max-w-3xl flex-col gap-1">
          <h2 id={headingId} className="text-xl font-bold tracking-tight">
            {t('admin.devices.title')}
          </h2>
          <p className="text-ink-muted">{t('admin.devices.description')}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <BrokerAccountsPanel />
          <RegisterDeviceButton />
        </div>
      </header>
      <DataTable
        label={t('admin.devices.tableLabel')}
        columns={columns}
        queryKey={[...adminKeys.devices, 'page']}
        queryFn={async (query) => {
          const devices = await getDevices();
          return (
            devices &&
            localTablePage(devices, query, {
              sortValue: (device, column) => SORT_VALUES[column]?.(device) ?? null,
              searchText: (device) => [device.machineId, names.get(device.machineId) ?? ''],
              locale,
            })
          );
        }}
        rowKey={(device) => device.machineId}
        rowClassName={(device) => (device.onBroker ? '' : 'bg-warning-soft/40')}
        searchable
        searchLabel={t('admin.devices.search')}
        initialSort={{ sort: 'machineId', order: 'asc' }}
        refetchInterval={REFRESH_MS}
        emptyMessage={t('admin.devices.empty')}
      />
      {shown && (
        <DeviceSecretDialog
          machineId={shown.machineId}
          secret={shown.secret}
          reason="replaced"
          onClose={() => setShown(null)}
        />
      )}
    </section>
  );
}
