import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { AppLink } from '@/ui/link';

type Section = 'users' | 'sprinklers' | 'rejected' | 'alerts' | 'backups';

const LINKS: Record<Section, string> = {
  users: paths.adminUsers.link(),
  sprinklers: paths.adminSprinklers.link(),
  rejected: paths.adminRejectedMessages.link(),
  alerts: paths.adminAlerts.link(),
  backups: paths.adminBackups.link(),
};

/** The admin panel's lists, as tabs under the title. */
export function AdminNav({ current }: { current: Section }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('admin.nav.label')} className="-mt-2 border-b border-line">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {(Object.keys(LINKS) as Section[]).map((section) => (
          <li key={section}>
            <AppLink
              to={LINKS[section]}
              aria-current={section === current ? 'page' : undefined}
              className="inline-flex h-10 items-center border-b-2 whitespace-nowrap border-transparent px-2 text-sm sm:px-3 font-semibold text-ink-muted hover:text-ink aria-[current=page]:border-water aria-[current=page]:text-ink"
            >
              {t(`admin.nav.${section}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
