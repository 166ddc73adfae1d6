import type { FarmRole } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useChangeMemberRole } from '../api/change-member-role';
import { useLeaveFarm } from '../api/leave-farm';
import { useRemoveFarmMember } from '../api/remove-farm-member';

/** A member as the farm's screen names them. */
export type NamedMember = { id: number; name: string };

/**
 * What the farm's screen does to its members: a role changed at once, a member removed or the
 * farm left after a question, each said in a toast once done (a refusal is the API client's toast).
 */
export function useMemberActions(farm: { id: number; name: string }, viewerId: number) {
  const { t } = useTranslation();
  const changeRole = useChangeMemberRole();
  const remove = useRemoveFarmMember();
  const leave = useLeaveFarm();

  const setRole = async (member: NamedMember, role: FarmRole) => {
    if (!(await changeRole.run(farm.id, member.id, { role }))) return;
    showToast({
      variant: 'success',
      title: t('farms.members.roleChanged.title'),
      message: t('farms.members.roleChanged.message', { name: member.name, role: t(`farms.roles.${role}`) }),
    });
  };

  const removeMember = async (member: NamedMember) => {
    const confirmed = await confirmDialog({
      title: t('farms.members.remove.confirmTitle', { name: member.name }),
      message: t('farms.members.remove.confirmMessage', { name: member.name, farm: farm.name }),
      right: t('farms.members.remove.confirm'),
      danger: true,
    });
    if (!confirmed || !(await remove.run(farm.id, member.id))) return;
    showToast({ variant: 'success', title: t('farms.members.remove.done', { name: member.name, farm: farm.name }) });
  };

  /** True once the user has left the farm: its screen is theirs no more. */
  const leaveFarm = async (): Promise<boolean> => {
    const confirmed = await confirmDialog({
      title: t('farms.leave.confirmTitle', { farm: farm.name }),
      message: t('farms.leave.confirmMessage'),
      right: t('farms.leave.confirm'),
      danger: true,
    });
    if (!confirmed || !(await leave.run(farm.id, viewerId))) return false;
    showToast({ variant: 'success', title: t('farms.leave.done', { farm: farm.name }) });
    return true;
  };

  return {
    setRole,
    removeMember,
    leaveFarm,
    isPending: changeRole.isPending || remove.isPending || leave.isPending,
  };
}
