import { useTranslation } from 'react-i18next';
import { AdminGuard } from '@/features/admin/components/admin-guard';
import { Page } from '@/ui/page';

export function AdminUsersRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.users.title')} />
    </AdminGuard>
  );
}

export function AdminSprinklersRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.sprinklers.title')} />
    </AdminGuard>
  );
}
