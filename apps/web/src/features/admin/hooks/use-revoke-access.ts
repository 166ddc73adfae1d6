import { useTranslation } from 'react-i18next';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useChangeSprinklerPermissions } from '../api/change-sprinkler-permissions';

export type AccessPair = {
  sprinkler: { id: number; label: string };
  user: { id: number; label: string };
};

/** Revoking one user's access to one machine, after a confirmation; the same from either list. */
export function useRevokeAccess() {
  const { t } = useTranslation();
  const change = useChangeSprinklerPermissions();
  const revoke = async ({ sprinkler, user }: AccessPair) => {
    const names = { user: user.label, machine: sprinkler.label };
    const confirmed = await confirmDialog({
      title: t('admin.access.revokeConfirm.title'),
      message: t('admin.access.revokeConfirm.message', names),
      right: t('admin.access.revokeConfirm.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    if (!(await change.run(sprinkler.id, { user: user.id, action: 'revoke' }))) return;
    showToast({
      variant: 'success',
      title: t('admin.access.revoked.title'),
      message: t('admin.access.revoked.message', names),
    });
  };
  return { revoke, isPending: change.isPending };
}
