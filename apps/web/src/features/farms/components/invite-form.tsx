import { useTranslation } from 'react-i18next';
import { showToast } from '@/ui/toast/toast-store';
import { useInviteToFarm } from '../api/invite-to-farm';
import { type Standing, rolesToInvite } from '../lib/farm-rules';
import { PersonByEmailForm } from './person-by-email-form';

/**
 * A farm's owners and managers (and the administrator) invite a person by email, in a role: the
 * server mails them a link to join (managers may not invite an owner, so the select leaves it out).
 */
export function InviteForm({ farmId, standing }: { farmId: number; standing: Standing }) {
  const { t } = useTranslation();
  const invite = useInviteToFarm();
  return (
    <PersonByEmailForm
      kind="invite"
      roles={rolesToInvite(standing)}
      pending={invite.isPending}
      send={async (person) => {
        const invited = await invite.run(farmId, person);
        if (!invited) return false;
        showToast({
          variant: 'success',
          title: t('farms.invite.done.title'),
          message: t('farms.invite.done.message', { email: invited.email, role: t(`farms.roles.${invited.role}`) }),
        });
        return true;
      }}
    />
  );
}
