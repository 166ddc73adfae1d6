import { FARM_ROLES } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/ui/toast/toast-store';
import { useAddFarmMember } from '../api/add-farm-member';
import { PersonByEmailForm } from './person-by-email-form';

/**
 * The server's administrator adds an existing account to the farm, by its email, in a role (a
 * farm's owners and managers invite people by email instead: docs/roles.md).
 */
export function AddMemberForm({ farmId }: { farmId: number }) {
  const { t } = useTranslation();
  const add = useAddFarmMember();
  return (
    <PersonByEmailForm
      kind="addMember"
      roles={FARM_ROLES}
      pending={add.isPending}
      send={async (person) => {
        const added = await add.run(farmId, person);
        if (!added) return false;
        showToast({
          variant: 'success',
          title: t('farms.addMember.done.title'),
          message: t('farms.addMember.done.message', {
            name: `${added.first_name} ${added.last_name}`.trim() || added.email,
            role: t(`farms.roles.${added.role}`),
          }),
        });
        return true;
      }}
    />
  );
}
