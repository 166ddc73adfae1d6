import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useUnreadCount } from '@/features/activity/api/get-unread-count';
import { useUser } from '@/lib/session';
import { ChevronRightIcon, ListIcon, PivotIcon, ShieldIcon, UserIcon } from '@/ui/other-icons';
import { AppLink } from '@/ui/link';
import { Page } from '@/ui/page';

function Tile({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <AppLink
      to={to}
      className="group flex items-start gap-4 rounded-xl border border-line bg-surface p-5 shadow-sm transition-colors hover:border-primary"
    >
      <span className="rounded-lg bg-water-soft p-2.5 text-water">{icon}</span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex items-center justify-between gap-2 text-lg font-semibold">
          {title}
          <ChevronRightIcon className="size-5 text-ink-muted group-hover:text-primary" />
        </span>
        <span className="text-sm text-ink-muted">{text}</span>
      </span>
    </AppLink>
  );
}

/** The signed-in start page: where to go next. */
export function HomeRoute() {
  const { t } = useTranslation();
  const user = useUser();
  const unread = useUnreadCount();
  if (!user) return null;
  return (
    <Page title={t('home.title', { name: user.first_name })} description={t('home.description')}>
      <nav aria-label={t('home.navigation')} className="grid gap-4 sm:grid-cols-2">
        <Tile
          to={paths.sprinklers.link()}
          icon={<PivotIcon className="size-6" />}
          title={t('nav.sprinklers')}
          text={t('home.sprinklers')}
        />
        <Tile
          to={paths.activity.link()}
          icon={<ListIcon className="size-6" />}
          title={t('nav.activity')}
          text={unread > 0 ? t('home.unread', { count: unread }) : t('home.activity')}
        />
        <Tile
          to={paths.account.link()}
          icon={<UserIcon className="size-6" />}
          title={t('nav.account')}
          text={t('home.account')}
        />
        {user.admin && (
          <Tile
            to={paths.adminUsers.link()}
            icon={<ShieldIcon className="size-6" />}
            title={t('nav.admin')}
            text={t('home.admin')}
          />
        )}
      </nav>
    </Page>
  );
}
