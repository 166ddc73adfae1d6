import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { SectorEditor } from '@/features/programs/components/sector-editor';
import { ConnectionLostLine } from '@/features/sprinklers/components/connection-lost-line';
import { useSprinkler } from '@/features/sprinklers/api/get-sprinkler';
import { ViewOnlyNotice } from '@/features/sprinklers/components/view-only-notice';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { RainLoader } from '@/ui/global-loader';
import { Page } from '@/ui/page';

/**
 * docs/product.md#screens: /sprinklers/{id}/{program_id}/{sector}, where {sector} is the sector's name
 * (URL-encoded); a name the program has no sector of opens a new sector of that name.
 */
export function SectorRoute() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const programId = Number(params.programId);
  const sectorName = params.sector ?? '';
  const { data: sprinkler, isPending } = useSprinkler(id);
  // Another sector in the address (a link, the browser's back button) is a new form; the address
  // the editor moves to itself after renaming a sector keeps the form as it is.
  const [opened, setOpened] = useState({ programId, sectorName, generation: 0 });
  if (opened.programId !== programId || opened.sectorName !== sectorName) {
    setOpened({ programId, sectorName, generation: opened.generation + 1 });
  }

  if (isPending) return <RainLoader />;
  if (!sprinkler) {
    return (
      <Page title={t('sprinklers.sector.title')}>
        <Card className="flex flex-col items-start gap-4">
          <p>{t('programs.sector.machineNotFound')}</p>
          <ButtonLink variant="secondary" to={paths.sprinklers.link()}>
            {t('programs.sector.backToList')}
          </ButtonLink>
        </Card>
      </Page>
    );
  }
  if (sprinkler.level !== 'control') {
    // Editing a sector changes the program: a user who may only watch the machine is told why not.
    return (
      <Page title={t('sprinklers.sector.title')}>
        <Card className="flex flex-col items-start gap-4">
          <ViewOnlyNotice message={t('sprinklers.detail.viewOnlySector')} />
          <ButtonLink variant="secondary" to={paths.sprinkler.link(id)}>
            {t('programs.sector.back')}
          </ButtonLink>
        </Card>
      </Page>
    );
  }
  return (
    <SectorEditor
      key={opened.generation}
      sprinkler={sprinkler}
      programId={programId}
      sectorName={sectorName}
      onRenamed={(name) => setOpened({ ...opened, sectorName: name })}
      notice={<ConnectionLostLine controls />}
    />
  );
}
