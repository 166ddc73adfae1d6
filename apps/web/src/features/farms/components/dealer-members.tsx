import type { Dealer, DealerMember } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { TrashIcon } from '@/ui/other-icons';
import { StaticTable } from '@/ui/static-table';
import type { TableColumn } from '@/ui/table-body';
import { showToast } from '@/ui/toast/toast-store';
import { useDealerMembers } from '../api/get-dealer-members';
import { useRemoveDealerMember } from '../api/remove-dealer-member';
import { memberName } from '../lib/member-name';

/**
 * One dealer's members, each with a remove button: after a question, the person's access through
 * the dealer ends at once, and their open pages of its farms' machines stop updating.
 */
function DealerMembersTable({ dealer }: { dealer: Dealer }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { data: members, isPending } = useDealerMembers(dealer.id);
  const remove = useRemoveDealerMember();

  const removeMember = async (member: DealerMember) => {
    const name = memberName(member);
    const confirmed = await confirmDialog({
      title: t('farms.dealerAdmin.members.remove.confirmTitle', { name }),
      message: t('farms.dealerAdmin.members.remove.confirmMessage', { name, dealer: dealer.name }),
      right: t('farms.dealerAdmin.members.remove.confirm'),
      danger: true,
    });
    if (!confirmed || !(await remove.run(dealer.id, member.id))) return;
    showToast({ variant: 'success', title: t('farms.dealerAdmin.members.remove.done', { name, dealer: dealer.name }) });
  };

  const columns: TableColumn<DealerMember>[] = [
    {
      id: 'person',
      header: t('farms.dealerAdmin.members.columns.person'),
      // The address under the name: the panel is a narrow column, where a column of its own
      // broke an address into a letter or two a line.
      cell: (member) => (
        <span className="flex flex-col">
          <span className="font-medium">{memberName(member)}</span>
          <span className="text-sm text-ink-muted [overflow-wrap:anywhere]">{member.email}</span>
        </span>
      ),
    },
    {
      id: 'actions',
      header: t('farms.dealerAdmin.members.columns.actions'),
      className: 'whitespace-nowrap',
      cell: (member) => (
        <Button
          variant="secondary"
          icon={<TrashIcon className="size-4" />}
          aria-label={t('farms.dealerAdmin.members.remove.action', { name: memberName(member) })}
          title={t('farms.dealerAdmin.members.remove.action', { name: memberName(member) })}
          disabled={remove.isPending}
          onClick={() => void removeMember(member)}
        >
          {t('farms.dealerAdmin.members.remove.short')}
        </Button>
      ),
    },
  ];

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="font-semibold [overflow-wrap:anywhere]">
        {dealer.name}
      </h3>
      {isPending ? (
        <p className="text-sm text-ink-muted">{t('farms.dealerAdmin.members.loading')}</p>
      ) : members ? (
        <StaticTable
          label={t('farms.dealerAdmin.members.tableLabel', { dealer: dealer.name })}
          columns={columns}
          rows={members}
          rowKey={(member) => member.id}
          emptyMessage={t('farms.dealerAdmin.members.empty')}
        />
      ) : (
        <p className="text-sm text-ink-muted">{t('farms.dealerAdmin.members.loadFailed')}</p>
      )}
    </section>
  );
}

/** Every dealer's members, dealer by dealer (the server's administrators). */
export function DealerMembers({ dealers }: { dealers: readonly Dealer[] }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <h3 className="font-semibold text-ink-muted">{t('farms.dealerAdmin.members.title')}</h3>
      {dealers.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('farms.dealerAdmin.members.noDealers')}</p>
      ) : (
        dealers.map((dealer) => <DealerMembersTable key={dealer.id} dealer={dealer} />)
      )}
    </div>
  );
}
