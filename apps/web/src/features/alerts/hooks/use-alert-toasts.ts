import type { Alert } from '@pivot/contracts';
import { useEffect, useRef } from 'react';
import { i18n } from '@/i18n/i18n';
import { showToast } from '@/ui/toast/toast-store';
import { followAlerts } from '../api/follow-alerts';
import { alertToast } from '../lib/alert-toast';

/**
 * While mounted (every signed-in page), follows the live alerts: each shows a toast in the
 * current language, and `onLogChange` is told whenever the activity log may hold something new
 * (an alert, or a reconnection after which some may have been missed).
 */
export function useAlertToasts(onLogChange: (alert: Alert | null) => void): void {
  const latestOnLogChange = useRef(onLogChange);
  useEffect(() => {
    latestOnLogChange.current = onLogChange;
  });

  useEffect(() => {
    const stop = new AbortController();
    void followAlerts({
      signal: stop.signal,
      onAlert: (alert) => {
        showToast(alertToast(alert, i18n));
        latestOnLogChange.current(alert);
      },
      onReconnect: () => latestOnLogChange.current(null),
    });
    return () => stop.abort();
  }, []);
}
