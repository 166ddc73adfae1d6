import type { Subscription } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Badge } from '@/ui/badge';

/** A user's subscription end date, marked once it has passed. */
export function SubscriptionCell({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  if (!subscription.expiry_date) return <span className="text-ink-muted">{t('admin.users.noExpiry')}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <time dateTime={subscription.expiry_date} className="whitespace-nowrap">
        {dates.day(subscription.expiry_date)}
      </time>
      {!subscription.active && <Badge tone="warning">{t('admin.users.badges.expired')}</Badge>}
    </span>
  );
}
