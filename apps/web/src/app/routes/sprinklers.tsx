import { useTranslation } from 'react-i18next';
import { ConnectionLostLine } from '@/features/sprinklers/components/connection-lost-line';
import { SprinklersTable } from '@/features/sprinklers/components/sprinklers-table';
import { Page } from '@/ui/page';

/** The user's machines (docs/product.md#screens), their values kept live. */
export function SprinklersRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('machineList.title')} description={t('machineList.description')} width="full">
      <ConnectionLostLine />
      <SprinklersTable />
    </Page>
  );
}
