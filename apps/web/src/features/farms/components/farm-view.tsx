import type { FarmDetail } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/ui/button';
import { Page } from '@/ui/page';
import { useMemberActions } from '../hooks/use-member-actions';
import { mayRename, mayRequireSecondFactor, standingOf } from '../lib/farm-rules';
import { AddMemberForm } from './add-member-form';
import { DealerGrants } from './dealer-grants';
import { FarmMachines } from './farm-machines';
import { GrantDealerForm } from './grant-dealer-form';
import { InvitationsTable } from './invitations-table';
import { InviteForm } from './invite-form';
import { MembersTable } from './members-table';
import { RenameFarmButton, RenameFarmForm } from './rename-farm';
import { SecondFactorSetting } from './second-factor-setting';

/**
 * A farm as its owners and managers (and the server's administrator) run it: its name (renamed in
 * place by an owner or the administrator), its members with their roles and what each may use of
 * its machines, the invitations waiting and a form to invite a person by email, whether the farm
 * requires two-step sign-in (its owners and the administrator switch it), its grants to dealers
 * with a form to grant one, its machines, and
 * for the administrator a form that adds an existing account.
 */
export function FarmView({
  detail,
  viewer,
  onLeft,
}: {
  detail: FarmDetail;
  viewer: { id: number; admin: boolean };
  /** Called once the viewer has left the farm: its page is not theirs any more. */
  onLeft: () => void;
}) {
  const { t } = useTranslation();
  const { farm } = detail;
  // The detail is only answered to those who run the farm: an owner, a manager, the administrator.
  const standing = standingOf(viewer.admin, farm.role) ?? 'manager';
  const actions = useMemberActions(farm, viewer.id);
  const [renaming, setRenaming] = useState(false);
  const leave = async () => {
    if (await actions.leaveFarm()) onLeft();
  };

  return (
    <Page
      title={farm.name}
      description={
        farm.role ? t('farms.detail.yourRole', { role: t(`farms.roles.${farm.role}`) }) : t('farms.detail.asOperator')
      }
      actions={
        <>
          {mayRename(standing) && <RenameFarmButton onClick={() => setRenaming(true)} disabled={renaming} />}
          <ButtonLink to={paths.farms.link()} variant="secondary">
            {t('farms.backToList')}
          </ButtonLink>
        </>
      }
    >
      {renaming && <RenameFarmForm farm={farm} onDone={() => setRenaming(false)} />}
      <section aria-labelledby="farm-members" className="flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <h2 id="farm-members" className="text-lg font-semibold">
            {t('farms.members.title', { number: detail.members.length })}
          </h2>
          <p className="text-sm text-ink-muted">{t('farms.members.description')}</p>
        </div>
        <MembersTable
          detail={detail}
          standing={standing}
          viewerId={viewer.id}
          actions={actions}
          onLeave={() => void leave()}
        />
      </section>
      <InvitationsTable farm={farm} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <FarmMachines machines={detail.machines} />
          <SecondFactorSetting farm={farm} editable={mayRequireSecondFactor(standing)} />
        </div>
        <div className="flex flex-col gap-6">
          <InviteForm farmId={farm.id} standing={standing} />
          {viewer.admin && <AddMemberForm farmId={farm.id} />}
        </div>
      </div>
      <DealerGrants farm={farm} machines={detail.machines} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <GrantDealerForm farm={farm} machines={detail.machines} />
      </div>
    </Page>
  );
}
