import type { SprinklerListItem, SprinklerWithUsers } from '@pivot/contracts';
import { UpdateSprinklerBodySchema } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '@/ui/data-table';
import { promptDialog } from '@/ui/dialog/dialogs';
import { IconButton } from '@/ui/icon-button';
import { showToast } from '@/ui/toast/toast-store';
import { adminKeys } from '../api/admin-keys';
import { useDevicesByMachineId } from '../api/get-devices';
import { type SprinklersQueryInput, getSprinklers } from '../api/get-sprinklers';
import { useUpdateSprinkler } from '../api/update-sprinkler';
import { useRevokeAccess } from '../hooks/use-revoke-access';
import { AccessList } from './access-list';
import { DeviceCredentialsBadge } from './device-credentials-badge';
import { PencilIcon } from '@/ui/icons';
import { GrantUserDialog } from './grant-user-dialog';
import { userName } from './user-name';

const nameSchema = UpdateSprinklerBodySchema.shape.name;

/** Every machine with the users who may use it and whether its controller has credentials: rename, grant and revoke from each row. */
export function SprinklersTable() {
  const { t } = useTranslation();
  const devices = useDevicesByMachineId();
  const update = useUpdateSprinkler();
  const { revoke } = useRevokeAccess();
  const [granting, setGranting] = useState<SprinklerListItem | null>(null);

  const rename = async (sprinkler: SprinklerListItem) => {
    const typed = await promptDialog({
      title: t('admin.sprinklers.rename.title', { name: sprinkler.name }),
      input: { label: t('admin.sprinklers.rename.label'), initialValue: sprinkler.name },
      right: t('admin.sprinklers.rename.save'),
    });
    if (typed === false) return;
    const parsed = nameSchema.safeParse(typed);
    if (!parsed.success || !parsed.data) {
      showToast({ variant: 'warning', title: t('admin.sprinklers.rename.invalid') });
      return;
    }
    if (parsed.data === sprinkler.name) return;
    if (await update.run(sprinkler.id, { name: parsed.data })) {
      showToast({ variant: 'success', title: t('admin.sprinklers.rename.done') });
    }
  };

  const columns: Column<SprinklerWithUsers>[] = [
    {
      id: 'name',
      header: t('admin.sprinklers.columns.name'),
      sortable: true,
      cell: ({ sprinkler }) => <span className="font-medium break-words">{sprinkler.name}</span>,
    },
    {
      id: 'internalId',
      header: t('admin.sprinklers.columns.internalId'),
      sortable: true,
      cell: ({ sprinkler }) => <span className="font-mono text-sm break-all">{sprinkler.internalId}</span>,
    },
    {
      id: 'controller',
      header: t('admin.sprinklers.columns.controller'),
      cell: ({ sprinkler }) => <DeviceCredentialsBadge devices={devices} internalId={sprinkler.internalId} />,
    },
    {
      id: 'users',
      header: t('admin.sprinklers.columns.users'),
      className: 'min-w-56',
      cell: ({ sprinkler, users }) => (
        <AccessList
          label={t('admin.sprinklers.columns.users')}
          items={users.map((user) => ({
            key: user.id,
            label: userName(user),
            revokeLabel: t('admin.access.revoke', { user: userName(user), machine: sprinkler.name }),
          }))}
          emptyMessage={t('admin.sprinklers.noUsers')}
          onRevoke={(id) => {
            const user = users.find((candidate) => candidate.id === id);
            if (user) {
              void revoke({
                sprinkler: { id: sprinkler.id, label: sprinkler.name },
                user: { id, label: userName(user) },
              });
            }
          }}
          grantLabel={t('admin.access.grantUser', { name: sprinkler.name })}
          onGrant={() => setGranting(sprinkler)}
        />
      ),
    },
    {
      id: 'actions',
      header: t('admin.sprinklers.columns.actions'),
      className: 'whitespace-nowrap',
      cell: ({ sprinkler }) => (
        <IconButton
          label={t('admin.sprinklers.rename.action', { name: sprinkler.name })}
          onClick={() => void rename(sprinkler)}
        >
          <PencilIcon className="size-4" />
        </IconButton>
      ),
    },
  ];

  return (
    <>
      <DataTable
        label={t('admin.sprinklers.tableLabel')}
        columns={columns}
        queryKey={[...adminKeys.sprinklers, 'list']}
        // The sortable columns are named after the server's sort fields.
        queryFn={(query) => getSprinklers({ ...query, sort: query.sort as SprinklersQueryInput['sort'] })}
        rowKey={({ sprinkler }) => sprinkler.id}
        searchable
        emptyMessage={t('admin.sprinklers.empty')}
      />
      {granting && <GrantUserDialog sprinkler={granting} onClose={() => setGranting(null)} />}
    </>
  );
}
