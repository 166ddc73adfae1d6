import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useConnection } from '@/lib/connection';

/**
 * What an online machine is called: "Online", or while the app's own connection is lost, the
 * last known state with its time ("Online at 14:02, last known"), as the line above the page
 * says: nothing live can be claimed of a machine the app cannot hear.
 */
export function useOnlineLabel(): string {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const { knownAt } = useConnection();
  return knownAt === null ? t('sprinklers.online') : t('sprinklers.onlineAt', { time: dates.clock(knownAt) });
}
