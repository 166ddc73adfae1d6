import type { User, UserWithSprinklers } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/lib/session';
import { Badge } from '@/ui/badge';
import { type Column, DataTable } from '@/ui/data-table';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { IconButton } from '@/ui/icon-button';
import { showToast } from '@/ui/toast/toast-store';
import { adminKeys } from '../api/admin-keys';
import { useDeleteUser } from '../api/delete-user';
import { useResetSecondFactor } from '../api/reset-second-factor';
import { type UsersQueryInput, getUsers } from '../api/get-users';
import { useChangeAccessLevel } from '../hooks/use-change-access-level';
import { useRevokeAccess } from '../hooks/use-revoke-access';
import { AccessList } from './access-list';
import { KeyIcon, PencilIcon, TrashIcon } from '@/ui/other-icons';
import { GrantMachineDialog } from './grant-machine-dialog';
import { SubscriptionCell } from './subscription-cell';
import { UserFormDialog } from './user-form-dialog';
import { userName } from './user-name';

type OpenDialog = { kind: 'edit' | 'grant'; user: User } | null;

/** Every user with the machines they may use: edit, delete, grant and revoke from each row. */
export function UsersTable() {
  const { t } = useTranslation();
  const me = useUser();
  const remove = useDeleteUser();
  const resetSecondFactor = useResetSecondFactor();
  const { revoke } = useRevokeAccess();
  const { changeLevel } = useChangeAccessLevel();
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const deleteUser = async (user: User) => {
    const confirmed = await confirmDialog({
      title: t('admin.users.deleteConfirm.title', { name: userName(user) }),
      message: t('admin.users.deleteConfirm.message', { email: user.email }),
      right: t('admin.users.deleteConfirm.confirm'),
      danger: true,
    });
    if (confirmed && (await remove.run(user.id))) showToast({ variant: 'success', title: t('admin.users.deleted') });
  };

  // The list does not say who has two-step sign-in on: an account without it is refused with its own text.
  const resetTwoStep = async (user: User) => {
    const confirmed = await confirmDialog({
      title: t('admin.users.resetSecondFactorConfirm.title', { name: userName(user) }),
      message: t('admin.users.resetSecondFactorConfirm.message', { email: user.email }),
      right: t('admin.users.resetSecondFactorConfirm.confirm'),
      danger: true,
    });
    if (confirmed && (await resetSecondFactor.run(user.id))) {
      showToast({ variant: 'success', title: t('admin.users.secondFactorReset') });
    }
  };

  const columns: Column<UserWithSprinklers>[] = [
    {
      id: 'last_name',
      header: t('admin.users.columns.name'),
      sortable: true,
      cell: ({ user }) => (
        <span className="flex flex-col items-start gap-1">
          <span className="font-medium">{userName(user)}</span>
          <span className="break-words text-ink-muted">{user.email}</span>
          {(user.admin || !user.activated) && (
            <span className="flex flex-wrap gap-1">
              {user.admin && <Badge tone="water">{t('admin.users.badges.admin')}</Badge>}
              {!user.activated && <Badge tone="muted">{t('admin.users.badges.notActivated')}</Badge>}
            </span>
          )}
        </span>
      ),
    },
    {
      id: 'company_name',
      header: t('admin.users.columns.company'),
      sortable: true,
      cell: ({ user }) => user.company_name ?? '—',
    },
    {
      id: 'subscription',
      header: t('admin.users.columns.subscription'),
      sortable: true,
      cell: ({ user }) => <SubscriptionCell subscription={user.subscription} />,
    },
    {
      id: 'machines',
      header: t('admin.users.columns.machines'),
      className: 'min-w-48',
      cell: ({ user, sprinklers }) => (
        <AccessList
          label={t('admin.users.columns.machines')}
          items={sprinklers.map((sprinkler) => ({
            key: sprinkler.id,
            label: sprinkler.name,
            detail: sprinkler.internalId === sprinkler.name ? undefined : sprinkler.internalId,
            level: sprinkler.level,
            levelLabel: t('admin.access.levelOf', { user: userName(user), machine: sprinkler.name }),
            revokeLabel: t('admin.access.revoke', { user: userName(user), machine: sprinkler.name }),
          }))}
          emptyMessage={t('admin.users.noMachines')}
          onRevoke={(id) => {
            const sprinkler = sprinklers.find((candidate) => candidate.id === id);
            if (sprinkler) {
              void revoke({
                sprinkler: { id, label: sprinkler.name },
                user: { id: user.id, label: userName(user) },
              });
            }
          }}
          onChangeLevel={(id, level) => {
            const sprinkler = sprinklers.find((candidate) => candidate.id === id);
            if (sprinkler) {
              void changeLevel(
                { sprinkler: { id, label: sprinkler.name }, user: { id: user.id, label: userName(user) } },
                level,
              );
            }
          }}
          grantLabel={t('admin.access.grantMachine', { name: userName(user) })}
          onGrant={() => setDialog({ kind: 'grant', user })}
        />
      ),
    },
    {
      id: 'actions',
      header: t('admin.users.columns.actions'),
      className: 'whitespace-nowrap',
      cell: ({ user }) => (
        <span className="flex gap-1">
          <IconButton
            label={t('admin.users.edit', { name: userName(user) })}
            onClick={() => setDialog({ kind: 'edit', user })}
          >
            <PencilIcon className="size-4" />
          </IconButton>
          <IconButton
            label={t('admin.users.resetSecondFactor', { name: userName(user) })}
            onClick={() => void resetTwoStep(user)}
          >
            <KeyIcon className="size-4" />
          </IconButton>
          {user.id !== me?.id && (
            <IconButton
              label={t('admin.users.delete', { name: userName(user) })}
              onClick={() => void deleteUser(user)}
              className="hover:text-error"
            >
              <TrashIcon className="size-4" />
            </IconButton>
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <DataTable
        label={t('admin.users.tableLabel')}
        columns={columns}
        queryKey={[...adminKeys.users, 'list']}
        // The sortable columns are named after the server's sort fields.
        queryFn={(query) => getUsers({ ...query, sort: query.sort as UsersQueryInput['sort'] })}
        rowKey={({ user }) => user.id}
        searchable
        emptyMessage={t('admin.users.empty')}
      />
      {dialog?.kind === 'edit' && <UserFormDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'grant' && <GrantMachineDialog user={dialog.user} onClose={() => setDialog(null)} />}
    </>
  );
}
