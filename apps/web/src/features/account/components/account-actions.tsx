import type { User } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { session } from '@/lib/session';
import { Button, ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { promptDialog } from '@/ui/dialog/dialogs';
import { LogoutIcon, ShieldIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useDeleteAccount } from '../api/delete-account';
import { useLogout } from '../hooks/use-logout';

/** Logging out, the admin panel link for administrators, and deleting the account. */
export function AccountActions({ user }: { user: User }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const remove = useDeleteAccount();

  // Deleting cannot be undone, so the user types their email rather than just pressing a button.
  const deleteAccount = async () => {
    const typed = await promptDialog({
      title: t('account.delete.confirmTitle'),
      message: t('account.delete.confirmMessage'),
      input: { label: t('account.delete.typeEmail', { email: user.email }), type: 'email' },
      right: t('account.delete.confirm'),
      danger: true,
    });
    if (typed === false) return;
    if (typed.trim().toLowerCase() !== user.email.toLowerCase()) {
      showToast({ variant: 'warning', title: t('account.delete.emailMismatch') });
      return;
    }
    const notEnding = session.beginEndingByUser();
    if (!(await remove.run())) {
      notEnding();
      return;
    }
    showToast({ variant: 'success', title: t('account.delete.done') });
    session.signOut({ byUser: true });
  };

  return (
    <Card aria-labelledby="account-actions">
      <h2 id="account-actions" className="mb-4 text-lg font-semibold">
        {t('account.actions.title')}
      </h2>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" icon={<LogoutIcon className="size-4" />} onClick={() => void logout()}>
          {t('logout.action')}
        </Button>
        {user.admin && (
          <ButtonLink variant="secondary" to={paths.adminUsers.link()}>
            <ShieldIcon className="size-4" />
            {t('nav.admin')}
          </ButtonLink>
        )}
      </div>
      <div className="mt-6 border-t border-line pt-5">
        <h3 className="font-semibold">{t('account.delete.title')}</h3>
        <p className="mt-1 mb-3 text-sm text-ink-muted">{t('account.delete.description')}</p>
        <Button variant="danger" disabled={remove.isPending} onClick={() => void deleteAccount()}>
          {t('account.delete.action')}
        </Button>
      </div>
    </Card>
  );
}
