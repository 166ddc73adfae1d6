import { useTranslation } from 'react-i18next';
import { FarmSwitch } from '@/features/farms/components/farm-switch';
import { ActivityLog } from '@/features/activity/components/activity-log';
import { Page } from '@/ui/page';

export function ActivityRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('activity.title')} description={t('activity.description')}>
      <FarmSwitch />
      <ActivityLog />
    </Page>
  );
}
