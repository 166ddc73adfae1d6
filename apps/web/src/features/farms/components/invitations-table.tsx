import type { FarmInvitation } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { TrashIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useInvitations } from '../api/get-invitations';
import { useResendInvitation } from '../api/resend-invitation';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { StaticTable } from '@/ui/static-table';
import type { TableColumn } from '@/ui/table-body';
import { RoleBadge } from './role-badge';

/**
 * The farm's invitations waiting: the address, the role, when sent and until when its link works
 * (none until the mail has gone out), each to resend (a new link) or revoke after a question.
 */
export function InvitationsTable({ farm }: { farm: { id: number; name: string } }) {
  const { t } = useTranslation();
  const format = useDateTimeFormat();
  const { data: invitations, isPending } = useInvitations(farm.id);
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const busy = resend.isPending || revoke.isPending;

  const resendOne = async (invitation: FarmInvitation) => {
    if (!(await resend.run(farm.id, invitation.id))) return;
    showToast({ variant: 'success', title: t('farms.invitations.resent', { email: invitation.email }) });
  };
  const revokeOne = async (invitation: FarmInvitation) => {
    const confirmed = await confirmDialog({
      title: t('farms.invitations.revoke.confirmTitle', { email: invitation.email }),
      message: t('farms.invitations.revoke.confirmMessage', { email: invitation.email, farm: farm.name }),
      right: t('farms.invitations.revoke.confirm'),
      danger: true,
    });
    if (!confirmed || !(await revoke.run(farm.id, invitation.id))) return;
    showToast({ variant: 'success', title: t('farms.invitations.revoke.done', { email: invitation.email }) });
  };

  const columns: TableColumn<FarmInvitation>[] = [
    {
      id: 'email',
      header: t('farms.invitations.columns.email'),
      cell: (invitation) => <span className="font-medium [overflow-wrap:anywhere]">{invitation.email}</span>,
    },
    {
      id: 'role',
      header: t('farms.invitations.columns.role'),
      cell: (invitation) => <RoleBadge role={invitation.role} />,
    },
    {
      id: 'sent',
      header: t('farms.invitations.columns.sent'),
      className: 'tabular-nums',
      cell: (invitation) => format.dateTime(invitation.sentAt),
    },
    {
      id: 'expires',
      header: t('farms.invitations.columns.expires'),
      className: 'tabular-nums',
      cell: (invitation) =>
        invitation.expiresAt === null ? (
          <span className="text-ink-muted">{t('farms.invitations.notMailed')}</span>
        ) : (
          format.dateTime(invitation.expiresAt)
        ),
    },
    {
      id: 'actions',
      header: t('farms.invitations.columns.actions'),
      className: 'whitespace-nowrap',
      cell: (invitation) => (
        <span className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-label={t('farms.invitations.resend', { email: invitation.email })}
            disabled={busy}
            onClick={() => void resendOne(invitation)}
          >
            {t('farms.invitations.resendShort')}
          </Button>
          <Button
            variant="secondary"
            icon={<TrashIcon className="size-4" />}
            aria-label={t('farms.invitations.revoke.action', { email: invitation.email })}
            disabled={busy}
            onClick={() => void revokeOne(invitation)}
          >
            {t('farms.invitations.revoke.short')}
          </Button>
        </span>
      ),
    },
  ];

  let content;
  if (isPending) content = <p className="text-ink-muted">{t('farms.invitations.loading')}</p>;
  else if (!invitations) content = <p className="text-ink-muted">{t('farms.invitations.loadFailed')}</p>;
  else
    content = (
      <StaticTable
        label={t('farms.invitations.tableLabel')}
        columns={columns}
        rows={invitations}
        rowKey={(invitation) => invitation.id}
        emptyMessage={t('farms.invitations.empty')}
      />
    );
  return (
    <section aria-labelledby="farm-invitations" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="farm-invitations" className="text-lg font-semibold">
          {t('farms.invitations.title')}
        </h2>
        <p className="text-sm text-ink-muted">{t('farms.invitations.description')}</p>
      </div>
      {content}
    </section>
  );
}
