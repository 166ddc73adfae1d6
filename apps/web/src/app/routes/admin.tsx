import { useTranslation } from 'react-i18next';
import { AddSprinklerButton } from '@/features/admin/components/add-sprinkler-button';
import { AddUserButton } from '@/features/admin/components/add-user-button';
import { AdminGuard } from '@/features/admin/components/admin-guard';
import { AdminNav } from '@/features/admin/components/admin-nav';
import { AlertDefaultsForm } from '@/features/admin/components/alert-defaults-form';
import { BackupSection } from '@/features/admin/components/backup-section';
import { DevicesSection } from '@/features/admin/components/devices-section';
import { WebhooksCard } from '@/features/alerts/components/webhooks-card';
import { RejectedMessagesTable } from '@/features/admin/components/rejected-messages-table';
import { SprinklersTable } from '@/features/admin/components/sprinklers-table';
import { UsersTable } from '@/features/admin/components/users-table';
import { Page } from '@/ui/page';

export function AdminUsersRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.users.title')} description={t('admin.users.description')} actions={<AddUserButton />}>
        <AdminNav current="users" />
        <UsersTable />
      </Page>
    </AdminGuard>
  );
}

export function AdminSprinklersRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page
        title={t('admin.sprinklers.title')}
        description={t('admin.sprinklers.description')}
        actions={<AddSprinklerButton />}
      >
        <AdminNav current="sprinklers" />
        <SprinklersTable />
        <DevicesSection />
      </Page>
    </AdminGuard>
  );
}

export function AdminRejectedMessagesRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.rejected.title')} description={t('admin.rejected.description')}>
        <AdminNav current="rejected" />
        <RejectedMessagesTable />
      </Page>
    </AdminGuard>
  );
}

export function AdminAlertsRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.alerts.title')} description={t('admin.alerts.description')}>
        <AdminNav current="alerts" />
        <AlertDefaultsForm />
        <WebhooksCard place="admin" />
      </Page>
    </AdminGuard>
  );
}

export function AdminBackupsRoute() {
  const { t } = useTranslation();
  return (
    <AdminGuard>
      <Page title={t('admin.backups.title')} description={t('admin.backups.description')}>
        <AdminNav current="backups" />
        <BackupSection />
      </Page>
    </AdminGuard>
  );
}
