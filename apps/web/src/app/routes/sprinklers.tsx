import { useTranslation } from 'react-i18next';
import { FarmSwitch } from '@/features/farms/components/farm-switch';
import { useFarmNames } from '@/features/farms/hooks/use-farm-names';
import { ConnectionLostLine } from '@/features/sprinklers/components/connection-lost-line';
import { SprinklersTable } from '@/features/sprinklers/components/sprinklers-table';
import { loadCataloguePart } from '@/i18n/i18n';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { laterPart } from '@/app/later-part';
import { Page } from '@/ui/page';

/** The download of every machine's water, with its date picker and texts, comes once the table has shown. */
const FleetDataCard = laterPart(async () => {
  await afterFirstScreen();
  const [{ DataDownloadCard }] = await Promise.all([
    import('@/features/sprinklers/components/data-download-card'),
    loadCataloguePart('machineCards'),
  ]);
  return DataDownloadCard;
});

/**
 * The user's machines (docs/product.md#screens), their values kept live, and their water as one
 * map; of one farm or all of them side by side (docs/roles.md).
 */
export function SprinklersRoute() {
  const { t } = useTranslation();
  const farmNames = useFarmNames();
  return (
    <Page title={t('machineList.title')} description={t('machineList.description')} width="full">
      <ConnectionLostLine />
      <FarmSwitch />
      <SprinklersTable farmNames={farmNames} />
      <FleetDataCard />
    </Page>
  );
}
