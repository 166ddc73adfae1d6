import { useTranslation } from 'react-i18next';
import { session } from '@/lib/session';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { logout } from '../api/logout';

/** Logs out after a confirmation (docs/product.md#screens); the sign-in guard then shows the login page. */
export function useLogout(): () => Promise<void> {
  const { t } = useTranslation();
  return async () => {
    const confirmed = await confirmDialog({
      title: t('logout.confirmTitle'),
      message: t('logout.confirmMessage'),
      right: t('logout.confirm'),
    });
    if (!confirmed) return;
    session.beginEndingByUser();
    // Even when the server cannot be told, this device forgets the session.
    await logout();
    session.signOut({ byUser: true });
  };
}
