import type { Subscription } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { Badge } from '@/ui/badge';

/** A user's subscription end date, marked once it has passed. */
export function SubscriptionCell({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!subscription.expiry_date) return <span className="text-ink-muted">{t('admin.users.noExpiry')}</span>;
  const date = new Date(`${subscription.expiry_date}T00:00:00Z`);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <time dateTime={subscription.expiry_date} className="whitespace-nowrap">
        {new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)}
      </time>
      {!subscription.active && <Badge tone="warning">{t('admin.users.badges.expired')}</Badge>}
    </span>
  );
}
