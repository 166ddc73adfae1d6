import type { Subscription } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { env } from '@/config/env';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { buttonClasses } from '@/ui/button';
import { Card } from '@/ui/card';
import { WarningIcon } from '@/ui/other-icons';

/** The subscription's last day, with the link to extend it and a warning once it has passed. */
export function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const expiry = subscription.expiry_date ? dates.day(subscription.expiry_date) : null;
  return (
    <Card aria-labelledby="account-subscription">
      <h2 id="account-subscription" className="mb-4 text-lg font-semibold">
        {t('account.subscription.title')}
      </h2>
      {!subscription.active && (
        <p role="alert" className="mb-4 flex items-start gap-2 rounded-lg bg-warning-soft p-3 font-medium text-warning">
          <WarningIcon className="mt-0.5 size-5 shrink-0" />
          {t('account.subscription.expired')}
        </p>
      )}
      <dl className="flex flex-col gap-1">
        <dt className="text-sm text-ink-muted">{t('account.subscription.expiry')}</dt>
        <dd className="text-lg font-semibold">{expiry ?? t('account.subscription.noExpiry')}</dd>
      </dl>
      <a
        href={env.subscriptionUrl}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClasses('secondary', 'mt-4')}
      >
        {t('account.subscription.extend')}
        <span className="sr-only">{t('common.opensInNewTab')}</span>
      </a>
    </Card>
  );
}
