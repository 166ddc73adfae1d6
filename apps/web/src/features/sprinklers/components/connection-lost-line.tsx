import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useConnection } from '@/lib/connection';
import { NoConnectionLine } from '@/ui/no-connection-line';

/**
 * Above the machines list and a machine's page while the connection is lost: the values below
 * are the ones known at that time; on a machine's page (`controls`), also that nothing that
 * changes the machine can be sent until it is back.
 */
export function ConnectionLostLine({ controls = false }: { controls?: boolean }) {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const { knownAt } = useConnection();
  if (knownAt === null) return null;
  return (
    <NoConnectionLine
      message={t('sprinklers.connection.lost', { time: dates.clock(knownAt) })}
      detail={controls ? t('sprinklers.connection.noCommands') : undefined}
    />
  );
}
