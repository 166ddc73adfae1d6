import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/session';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { ShieldIcon } from '@/ui/other-icons';

/** The admin panel is for administrators only (docs/product.md#roles); others see why, not an empty page. */
export function AdminGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  if (user?.admin) return children;
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center gap-4 text-center">
      <ShieldIcon className="size-10 text-warning" />
      <h1 className="text-xl font-semibold">{t('admin.onlyAdmins')}</h1>
      <ButtonLink to={paths.home.link()} variant="secondary">
        {t('common.backHome')}
      </ButtonLink>
    </Card>
  );
}
