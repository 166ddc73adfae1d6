import type { DealerGrant, FarmDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { TrashIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useDealerGrants } from '../api/get-dealer-grants';
import { useRevokeDealer } from '../api/revoke-dealer';
import { StaticTable } from '@/ui/static-table';
import type { TableColumn } from '@/ui/table-body';

type Machine = FarmDetail['machines'][number];

/**
 * The farm's grants to dealers: the dealer, watch or control, all the farm's machines or the ones
 * named, until when (or until revoked; "expired" once no longer in force), each to revoke after a
 * question.
 */
export function DealerGrants({ farm, machines }: { farm: { id: number; name: string }; machines: Machine[] }) {
  const { t } = useTranslation();
  const format = useDateTimeFormat();
  const { data: grants, isPending } = useDealerGrants(farm.id);
  const revoke = useRevokeDealer();

  const revokeOne = async (grant: DealerGrant) => {
    const confirmed = await confirmDialog({
      title: t('farms.dealers.revoke.confirmTitle', { dealer: grant.dealer.name }),
      message: t('farms.dealers.revoke.confirmMessage', { dealer: grant.dealer.name, farm: farm.name }),
      right: t('farms.dealers.revoke.confirm'),
      danger: true,
    });
    if (!confirmed || !(await revoke.run(farm.id, grant.dealer.id))) return;
    showToast({
      variant: 'success',
      title: t('farms.dealers.revoke.done', { dealer: grant.dealer.name, farm: farm.name }),
    });
  };

  const machineNames = (ids: readonly number[]) =>
    ids.map((id) => machines.find((machine) => machine.id === id)?.name ?? `#${id}`).join(', ');

  const columns: TableColumn<DealerGrant>[] = [
    {
      id: 'dealer',
      header: t('farms.dealers.columns.dealer'),
      cell: (grant) => <span className="font-medium [overflow-wrap:anywhere]">{grant.dealer.name}</span>,
    },
    {
      id: 'level',
      header: t('farms.dealers.columns.level'),
      cell: (grant) => (
        <Badge tone={grant.level === 'control' ? 'water' : 'muted'}>{t(`farms.access.levels.${grant.level}`)}</Badge>
      ),
    },
    {
      id: 'machines',
      header: t('farms.dealers.columns.machines'),
      cell: (grant) =>
        grant.machines === 'all' ? t('farms.dealers.allMachines') : <span>{machineNames(grant.machines)}</span>,
    },
    {
      id: 'until',
      header: t('farms.dealers.columns.until'),
      className: 'tabular-nums',
      cell: (grant) => (
        <span className="flex flex-wrap items-center gap-2">
          {grant.expiresAt === null ? t('farms.dealers.untilRevoked') : format.dateTime(grant.expiresAt)}
          {!grant.inForce && <Badge tone="warning">{t('farms.dealers.expired')}</Badge>}
        </span>
      ),
    },
    {
      id: 'actions',
      header: t('farms.dealers.columns.actions'),
      className: 'whitespace-nowrap',
      cell: (grant) => (
        <Button
          variant="secondary"
          icon={<TrashIcon className="size-4" />}
          aria-label={t('farms.dealers.revoke.action', { dealer: grant.dealer.name })}
          disabled={revoke.isPending}
          onClick={() => void revokeOne(grant)}
        >
          {t('farms.dealers.revoke.short')}
        </Button>
      ),
    },
  ];

  let content;
  if (isPending) content = <p className="text-ink-muted">{t('farms.dealers.loading')}</p>;
  else if (!grants) content = <p className="text-ink-muted">{t('farms.dealers.loadFailed')}</p>;
  else
    content = (
      <StaticTable
        label={t('farms.dealers.tableLabel')}
        columns={columns}
        rows={grants}
        rowKey={(grant) => grant.dealer.id}
        emptyMessage={t('farms.dealers.empty')}
      />
    );
  return (
    <section aria-labelledby="farm-dealers" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="farm-dealers" className="text-lg font-semibold">
          {t('farms.dealers.title')}
        </h2>
        <p className="text-sm text-ink-muted">{t('farms.dealers.description')}</p>
      </div>
      {content}
    </section>
  );
}
