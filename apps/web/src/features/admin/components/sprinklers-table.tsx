import type { SprinklerListItem, SprinklerWithUsers } from '@pivot/contracts';
import { UpdateSprinklerBodySchema } from '@pivot/contracts';
import type { UpdateSprinklerBody } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { type Column, DataTable } from '@/ui/data-table';
import { promptDialog } from '@/ui/dialog/dialogs';
import { IconButton } from '@/ui/icon-button';
import { showToast } from '@/ui/toast/toast-store';
import { adminKeys } from '../api/admin-keys';
import { useDevicesByMachineId } from '../api/get-devices';
import { type SprinklersQueryInput, getSprinklers } from '../api/get-sprinklers';
import { useUpdateSprinkler } from '../api/update-sprinkler';
import { useChangeAccessLevel } from '../hooks/use-change-access-level';
import { useRevokeAccess } from '../hooks/use-revoke-access';
import { AccessList } from './access-list';
import { DeviceCredentialsBadge } from './device-credentials-badge';
import { FarmIcon, PencilIcon } from '@/ui/other-icons';
import { GrantUserDialog } from './grant-user-dialog';
import { MoveToFarmDialog } from './move-to-farm-dialog';
import { userName } from './user-name';
import { parseDecimal } from '@/lib/decimal';
import { numberFormat } from '@/i18n/number-format';

const nameSchema = UpdateSprinklerBodySchema.shape.name;
const lowPressureSchema = UpdateSprinklerBodySchema.shape.lowPressureBar;

/** Every machine with the users who may use it and whether its controller has credentials: rename, grant and revoke from each row. */
export function SprinklersTable() {
  const { t } = useTranslation();
  const devices = useDevicesByMachineId();
  const update = useUpdateSprinkler();
  const { revoke } = useRevokeAccess();
  const { changeLevel } = useChangeAccessLevel();
  const [granting, setGranting] = useState<SprinklerListItem | null>(null);
  const [moving, setMoving] = useState<SprinklerListItem | null>(null);

  const bar = numberFormat(useLocale(), { maximumFractionDigits: 2 });

  /** Asks for a new value in a dialog and saves it; nothing is sent when it is cancelled or unchanged. */
  const edit = async <Field extends keyof UpdateSprinklerBody>(
    sprinkler: SprinklerListItem,
    field: Field,
    dialog: { title: string; label: string; initialValue: string; save: string; invalid: string; done: string },
    parse: (typed: string) => UpdateSprinklerBody[Field] | undefined,
  ) => {
    const typed = await promptDialog({
      title: dialog.title,
      input: { label: dialog.label, initialValue: dialog.initialValue },
      right: dialog.save,
    });
    if (typed === false) return;
    const value = parse(typed);
    if (value === undefined) {
      showToast({ variant: 'warning', title: dialog.invalid });
      return;
    }
    if (value === sprinkler[field as keyof SprinklerListItem]) return;
    if (await update.run(sprinkler.id, { [field]: value })) showToast({ variant: 'success', title: dialog.done });
  };

  const rename = (sprinkler: SprinklerListItem) =>
    edit(
      sprinkler,
      'name',
      {
        title: t('admin.sprinklers.rename.title', { name: sprinkler.name }),
        label: t('admin.sprinklers.rename.label'),
        initialValue: sprinkler.name,
        save: t('admin.sprinklers.rename.save'),
        invalid: t('admin.sprinklers.rename.invalid'),
        done: t('admin.sprinklers.rename.done'),
      },
      (typed) => nameSchema.safeParse(typed).data || undefined,
    );

  const setLowPressure = (sprinkler: SprinklerListItem) =>
    edit(
      sprinkler,
      'lowPressureBar',
      {
        title: t('admin.sprinklers.lowPressure.title', { name: sprinkler.name }),
        label: t('admin.sprinklers.lowPressure.label'),
        initialValue: bar.format(sprinkler.lowPressureBar),
        save: t('admin.sprinklers.lowPressure.save'),
        invalid: t('admin.sprinklers.lowPressure.invalid'),
        done: t('admin.sprinklers.lowPressure.done'),
      },
      (typed) => lowPressureSchema.safeParse(parseDecimal(typed)).data,
    );

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
      id: 'farm',
      header: t('admin.sprinklers.columns.farm'),
      cell: ({ farm }) =>
        farm ? (
          <span className="break-words">{farm.name}</span>
        ) : (
          <span className="text-ink-muted">{t('admin.sprinklers.noFarm')}</span>
        ),
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
            level: user.level,
            levelLabel: t('admin.access.levelOf', { user: userName(user), machine: sprinkler.name }),
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
          onChangeLevel={(id, level) => {
            const user = users.find((candidate) => candidate.id === id);
            if (user) {
              void changeLevel(
                { sprinkler: { id: sprinkler.id, label: sprinkler.name }, user: { id, label: userName(user) } },
                level,
              );
            }
          }}
          grantLabel={t('admin.access.grantUser', { name: sprinkler.name })}
          onGrant={() => setGranting(sprinkler)}
        />
      ),
    },
    {
      id: 'lowPressure',
      header: t('admin.sprinklers.columns.lowPressure'),
      className: 'whitespace-nowrap',
      cell: ({ sprinkler }) => (
        <span className="inline-flex items-center gap-1">
          {sprinkler.lowPressureBar === 0
            ? t('admin.sprinklers.lowPressure.off')
            : t('admin.sprinklers.lowPressure.below', { bar: bar.format(sprinkler.lowPressureBar) })}
          <IconButton
            label={t('admin.sprinklers.lowPressure.action', { name: sprinkler.name })}
            onClick={() => void setLowPressure(sprinkler)}
          >
            <PencilIcon className="size-4" />
          </IconButton>
        </span>
      ),
    },
    {
      id: 'actions',
      header: t('admin.sprinklers.columns.actions'),
      className: 'whitespace-nowrap',
      cell: ({ sprinkler }) => (
        <span className="inline-flex gap-1">
          <IconButton
            label={t('admin.sprinklers.rename.action', { name: sprinkler.name })}
            onClick={() => void rename(sprinkler)}
          >
            <PencilIcon className="size-4" />
          </IconButton>
          <IconButton
            label={t('admin.sprinklers.moveToFarm.action', { name: sprinkler.name })}
            onClick={() => setMoving(sprinkler)}
          >
            <FarmIcon className="size-4" />
          </IconButton>
        </span>
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
      {moving && <MoveToFarmDialog sprinkler={moving} onClose={() => setMoving(null)} />}
    </>
  );
}
