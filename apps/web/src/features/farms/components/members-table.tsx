import type { FarmDetail, FarmMember, FarmRole } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { LogoutIcon, TrashIcon } from '@/ui/other-icons';
import { type Standing, mayRemove, rolesToGive } from '../lib/farm-rules';
import { memberName } from '../lib/member-name';
import type { useMemberActions } from '../hooks/use-member-actions';
import { StaticTable } from '@/ui/static-table';
import type { TableColumn } from '@/ui/table-body';
import { MemberAccess } from './member-access';
import { RoleBadge } from './role-badge';

type MemberActions = ReturnType<typeof useMemberActions>;

/** A member's role, as a select where the viewer may change it; the change is sent at once. */
function RoleCell({ member, standing, actions }: { member: FarmMember; standing: Standing; actions: MemberActions }) {
  const { t } = useTranslation();
  const [asked, setAsked] = useState<FarmRole | null>(null);
  const roles = rolesToGive(standing, member.role);
  if (roles.length === 0) return <RoleBadge role={member.role} />;
  const name = memberName(member);
  const pick = async (role: FarmRole) => {
    setAsked(role);
    await actions.setRole({ id: member.id, name }, role);
    setAsked(null);
  };
  return (
    <select
      aria-label={t('farms.members.roleOf', { name })}
      value={asked ?? member.role}
      disabled={asked !== null}
      onChange={(event) => void pick(event.target.value as FarmRole)}
      className="h-8 rounded-md border border-line bg-surface px-2 text-sm font-medium disabled:opacity-60"
    >
      {roles.map((role) => (
        <option key={role} value={role}>
          {t(`farms.roles.${role}`)}
        </option>
      ))}
    </select>
  );
}

/**
 * The farm's members: name, email, role (to change where the viewer may), what each member may
 * use of the farm's machines, and a remove button (for oneself: leave the farm).
 */
export function MembersTable({
  detail,
  standing,
  viewerId,
  actions,
  onLeave,
}: {
  detail: FarmDetail;
  standing: Standing;
  viewerId: number;
  actions: MemberActions;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const columns: TableColumn<FarmMember>[] = [
    {
      id: 'name',
      header: t('farms.members.columns.name'),
      cell: (member) => (
        <span className="font-medium">
          {memberName(member)}
          {member.id === viewerId && (
            <span className="ml-1.5 font-normal text-ink-muted">{t('farms.members.you')}</span>
          )}
        </span>
      ),
    },
    {
      id: 'email',
      header: t('farms.members.columns.email'),
      cell: (member) => <span className="[overflow-wrap:anywhere]">{member.email}</span>,
    },
    {
      id: 'role',
      header: t('farms.members.columns.role'),
      className: 'whitespace-nowrap',
      cell: (member) => <RoleCell member={member} standing={standing} actions={actions} />,
    },
    {
      id: 'access',
      header: t('farms.members.columns.access'),
      cell: (member) => <MemberAccess member={member} name={memberName(member)} machines={detail.machines} />,
    },
    {
      id: 'actions',
      header: t('farms.members.columns.actions'),
      className: 'whitespace-nowrap',
      cell: (member) => {
        const name = memberName(member);
        if (member.id === viewerId) {
          return (
            <Button
              variant="secondary"
              icon={<LogoutIcon className="size-4" />}
              disabled={actions.isPending}
              onClick={onLeave}
            >
              {t('farms.leave.action')}
            </Button>
          );
        }
        if (!mayRemove(standing, member, viewerId)) return null;
        return (
          <Button
            variant="secondary"
            icon={<TrashIcon className="size-4" />}
            aria-label={t('farms.members.remove.action', { name })}
            title={t('farms.members.remove.action', { name })}
            disabled={actions.isPending}
            onClick={() => void actions.removeMember({ id: member.id, name })}
          >
            {t('farms.members.remove.short')}
          </Button>
        );
      },
    },
  ];
  return (
    <StaticTable
      label={t('farms.members.tableLabel')}
      columns={columns}
      rows={detail.members}
      rowKey={(member) => member.id}
      emptyMessage={t('farms.members.empty')}
    />
  );
}
