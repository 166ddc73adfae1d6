import { useTranslation } from 'react-i18next';
import { InvitationForm } from '@/features/auth/components/invitation-form';
import { Page } from '@/ui/page';

/** A farm's mailed invitation, opened signed in or not (docs/roles.md, "Invitations"). */
export function InvitationRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('invitation.title')} description={t('invitation.description')} width="narrow">
      <InvitationForm />
    </Page>
  );
}
