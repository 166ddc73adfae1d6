import { useSyncExternalStore } from 'react';
import { useLocale } from '@/i18n/use-locale';
import { serverNow, subscribeToClock } from '@/lib/server-clock';
import { timeAgo } from '../lib/time-ago';

/**
 * How long ago `timestamp` was, in the page's language ("2 min ago", "2 min temu"), kept up
 * to date as time passes: asked again every second, shown again when the words change.
 */
export function useTimeAgo(timestamp: number): string {
  const locale = useLocale();
  const read = () => timeAgo(timestamp, serverNow(), locale);
  return useSyncExternalStore(subscribeToClock, read, read);
}
