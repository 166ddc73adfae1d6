import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { refreshAfterAdminChange } from '../api/admin-keys';
import { brokerAccountsQueryOptions } from '../api/get-broker-accounts';
import { useRestoreBrokerAccounts } from '../api/restore-broker-accounts';

/**
 * Where the broker keeps the controllers' accounts itself (Mosquitto), the server gives back what
 * it loses: what it found last, how far a restoration under way has come, and a button to start
 * one now. Nothing where the broker asks the server at each connection.
 */
export function BrokerAccountsPanel() {
  const { t } = useTranslation();
  const { data } = useQuery(brokerAccountsQueryOptions());
  const restore = useRestoreBrokerAccounts();
  const running = data ? data.running : false;
  const wasRunning = useRef(running);
  useEffect(() => {
    // Once done, the controllers' "not on the broker" marks are read again.
    if (wasRunning.current && !running) void refreshAfterAdminChange();
    wasRunning.current = running;
  }, [running]);
  if (!data || !data.managed) return null;

  const { progress, lastCheck } = data;
  const status = progress
    ? t('admin.devices.brokerAccounts.progress', { done: progress.done, total: progress.total })
    : running
      ? t('admin.devices.brokerAccounts.checking')
      : lastCheck === null
        ? null
        : lastCheck.missing === 0
          ? t('admin.devices.brokerAccounts.complete')
          : t('admin.devices.brokerAccounts.restored', {
              missing: lastCheck.missing,
              restored: lastCheck.restored,
              unrestorable: lastCheck.unrestorable,
            });
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p role="status" className="text-ink-muted">
        {status}
      </p>
      <Button variant="secondary" disabled={running || restore.isPending} onClick={() => void restore.run()}>
        {t('admin.devices.brokerAccounts.restore')}
      </Button>
    </div>
  );
}
