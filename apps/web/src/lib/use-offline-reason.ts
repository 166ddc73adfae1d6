import { useTranslation } from 'react-i18next';
import { useConnection } from './connection';

/**
 * Why a control that changes a machine (a motion, a program sent, saved or deleted, a sector, a
 * season) is disabled while the connection is lost, for its tooltip; undefined while the
 * connection is there. Nothing is kept to be sent later: a command queued in a pocket could move
 * a machine long after anyone meant it to.
 */
export function useOfflineReason(): string | undefined {
  const { t } = useTranslation();
  const { online } = useConnection();
  return online ? undefined : t('sprinklers.connection.disabledReason');
}
