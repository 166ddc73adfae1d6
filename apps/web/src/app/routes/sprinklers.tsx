import { useTranslation } from 'react-i18next';
import { Card } from '@/ui/card';
import { Page } from '@/ui/page';

/** The machine screens arrive with their own issue; until then each route says so plainly. */
function ScreenBeingBuilt({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Page title={title}>
      <Card variant="box">
        <p>{t('common.beingBuilt')}</p>
      </Card>
    </Page>
  );
}

export function SprinklersRoute() {
  const { t } = useTranslation();
  return <ScreenBeingBuilt title={t('sprinklers.list.title')} />;
}

export function SprinklerRoute() {
  const { t } = useTranslation();
  return <ScreenBeingBuilt title={t('sprinklers.detail.title')} />;
}

export function SectorRoute() {
  const { t } = useTranslation();
  return <ScreenBeingBuilt title={t('sprinklers.sector.title')} />;
}
