import type { AccessLevel } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/ui/toast/toast-store';
import { useChangeSprinklerPermissions } from '../api/change-sprinkler-permissions';
import type { AccessPair } from './use-revoke-access';

/** Changing the level of one user's grant of one machine (granting again at the other level); the same from either list. */
export function useChangeAccessLevel() {
  const { t } = useTranslation();
  const change = useChangeSprinklerPermissions();
  const changeLevel = async ({ sprinkler, user }: AccessPair, level: AccessLevel) => {
    if (!(await change.run(sprinkler.id, { user: user.id, action: 'grant', level }))) return;
    showToast({
      variant: 'success',
      title: t('admin.access.levelChanged.title'),
      message: t('admin.access.levelChanged.message', {
        user: user.label,
        machine: sprinkler.label,
        level: t(`admin.access.levels.${level}`),
      }),
    });
  };
  return { changeLevel, isPending: change.isPending };
}
