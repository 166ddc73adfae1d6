import { useTranslation } from 'react-i18next';
import { AccountActions } from '@/features/account/components/account-actions';
import { AccountForm } from '@/features/account/components/account-form';
import { ChangePasswordForm } from '@/features/account/components/change-password-form';
import { SecondFactorCard } from '@/features/account/components/second-factor-card';
import { SubscriptionCard } from '@/features/account/components/subscription-card';
import { AlertSettingsCard } from '@/features/alerts/components/alert-settings-card';
import { WebhooksCard } from '@/features/alerts/components/webhooks-card';
import { useUser } from '@/lib/session';
import { Page } from '@/ui/page';

export function AccountRoute() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user) return null;
  return (
    <Page title={t('account.title')} description={t('account.description')}>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-6 lg:col-span-2">
          <AccountForm key={user.id} user={user} />
          <AlertSettingsCard />
          <WebhooksCard place="account" />
          <ChangePasswordForm />
          <SecondFactorCard user={user} />
        </div>
        <div className="flex flex-col gap-6">
          <SubscriptionCard subscription={user.subscription} />
          <AccountActions user={user} />
        </div>
      </div>
    </Page>
  );
}
