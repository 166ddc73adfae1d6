import type { AccessLevel, User } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PICKER_PAGE_SIZE, type PickerOption, PickerDialog } from '@/ui/picker-dialog';
import { showToast } from '@/ui/toast/toast-store';
import { adminKeys } from '../api/admin-keys';
import { useChangeSprinklerPermissions } from '../api/change-sprinkler-permissions';
import { getSprinklers } from '../api/get-sprinklers';
import { AccessLevelField } from './access-level-field';
import { userName } from './user-name';

/** Grants a user one of the machines they do not have yet. */
export function GrantMachineDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation();
  const change = useChangeSprinklerPermissions();
  const [level, setLevel] = useState<AccessLevel>('control');
  const name = userName(user);

  const fetchOptions = async (search: string) => {
    const page = await getSprinklers({
      exclude: String(user.id),
      pageSize: PICKER_PAGE_SIZE,
      sort: 'name',
      ...(search ? { search } : {}),
    });
    return (
      page && {
        count: page.count,
        options: page.data.map(({ sprinkler }) => ({
          key: sprinkler.id,
          label: sprinkler.name,
          detail: sprinkler.internalId,
        })),
      }
    );
  };

  const grant = async (machine: PickerOption) => {
    if (!(await change.run(machine.key, { user: user.id, action: 'grant', level }))) return false;
    showToast({
      variant: 'success',
      title: t('admin.access.granted.title'),
      message: t(level === 'watch' ? 'admin.access.grantedWatch' : 'admin.access.granted.message', {
        user: name,
        machine: machine.label,
      }),
    });
    return true;
  };

  return (
    <PickerDialog
      title={t('admin.access.grantMachine', { name })}
      legend={t('admin.access.machinesWithout', { name })}
      searchLabel={t('admin.access.searchMachines')}
      emptyMessage={t('admin.access.noMachines')}
      queryKey={[...adminKeys.sprinklers, 'without-user', user.id]}
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
