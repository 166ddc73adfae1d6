import type { AccessLevel, SprinklerListItem } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PICKER_PAGE_SIZE, type PickerOption, PickerDialog } from '@/ui/picker-dialog';
import { showToast } from '@/ui/toast/toast-store';
import { adminKeys } from '../api/admin-keys';
import { useChangeSprinklerPermissions } from '../api/change-sprinkler-permissions';
import { getUsers } from '../api/get-users';
import { AccessLevelField } from './access-level-field';
import { userName } from './user-name';

/** Grants a machine to one of the users who cannot use it yet. */
export function GrantUserDialog({ sprinkler, onClose }: { sprinkler: SprinklerListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const change = useChangeSprinklerPermissions();
  const [level, setLevel] = useState<AccessLevel>('control');

  const fetchOptions = async (search: string) => {
    const page = await getUsers({
      exclude: String(sprinkler.id),
      pageSize: PICKER_PAGE_SIZE,
      sort: 'last_name',
      ...(search ? { search } : {}),
    });
    return (
      page && {
        count: page.count,
        options: page.data.map(({ user }) => ({ key: user.id, label: userName(user), detail: user.email })),
      }
    );
  };

  const grant = async (user: PickerOption) => {
    if (!(await change.run(sprinkler.id, { user: user.key, action: 'grant', level }))) return false;
    showToast({
      variant: 'success',
      title: t('admin.access.granted.title'),
      message: t(level === 'watch' ? 'admin.access.grantedWatch' : 'admin.access.granted.message', {
        user: user.label,
        machine: sprinkler.name,
      }),
    });
    return true;
  };

  return (
    <PickerDialog
      title={t('admin.access.grantUser', { name: sprinkler.name })}
      legend={t('admin.access.usersWithout', { name: sprinkler.name })}
      searchLabel={t('admin.access.searchUsers')}
      emptyMessage={t('admin.access.noUsers')}
      queryKey={[...adminKeys.users, 'without-sprinkler', sprinkler.id]}
      fetchOptions={fetchOptions}
      confirmLabel={t('admin.access.confirm')}
      onPick={grant}
      pending={change.isPending}
      onClose={onClose}
    >
      <AccessLevelField value={level} onChange={setLevel} />
    </PickerDialog>
  );
}
