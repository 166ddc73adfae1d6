import type { Program, ProgramData, SprinklerDetail } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { FileButton } from '@/ui/file-button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useUpdateProgram } from '../api/update-program';
import { MAP_FILE_ACCEPT, MapImportError, readMapFile } from '../lib/import-map-file';
import { checkReach, formatDistance, machineReach, swapCoordinates } from '../lib/import-reach';
import { useOfflineReason } from '@/lib/use-offline-reason';

/**
 * Imports a map file (GeoJSON, KML, zipped shapefile) into a program, replacing its sectors:
 * docs/product.md#states asks first when the program has sectors. A file that cannot be used changes nothing
 * and says why (docs/product.md#errors: "Incorrect structure of the imported map file"). Sectors beyond the
 * machine's reach are told with their distance before anything is stored: swapped latitude and
 * longitude are offered to be swapped back, anything else is imported only when confirmed.
 */
export function ImportMapButton({ sprinkler, program }: { sprinkler: SprinklerDetail; program: Program }) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const locale = useLocale();
  const update = useUpdateProgram();
  const [reading, setReading] = useState(false);

  const refuse = (error: unknown) => {
    const { problem, detail } = error instanceof MapImportError ? error : new MapImportError('unreadable');
    const reason = detail.shape ? t(`programs.import.shape.${detail.shape}`) : '';
    showToast({
      variant: 'error',
      title: t('programs.import.incorrect'),
      message: t(`programs.import.problem.${problem}`, { ...detail, reason }),
    });
  };

  /** Whether to go on with sectors that lie beyond the machine's reach, and how: swapped back, or as they are. */
  const confirmFarSectors = async (programData: ProgramData): Promise<ProgramData | null> => {
    const reach = machineReach(sprinkler);
    const { far, fitsSwapped } = checkReach(programData, reach);
    const nearest = far[0];
    if (!nearest) return programData;
    const reachText = reach.armKnown
      ? formatDistance(reach.reachM, locale)
      : t('programs.import.far.reachUnknown', { reach: formatDistance(reach.reachM, locale) });
    const confirmed = await confirmDialog({
      title: t('programs.import.far.title'),
      message: [
        t('programs.import.far.message', {
          count: far.length,
          name: nearest.name,
          distance: formatDistance(nearest.distanceM, locale),
          reach: reachText,
        }),
        t(fitsSwapped ? 'programs.import.far.swapped' : 'programs.import.far.check'),
      ].join(' '),
      right: t(fitsSwapped ? 'programs.import.far.swap' : 'programs.import.far.importAnyway'),
    });
    if (!confirmed) return null;
    return fitsSwapped ? swapCoordinates(programData) : programData;
  };

  const importFile = async (file: File) => {
    setReading(true);
    let programData: ProgramData;
    try {
      programData = await readMapFile(file, { defaultName: (number) => t('programs.sectors.defaultName', { number }) });
    } catch (error) {
      refuse(error);
      return;
    } finally {
      setReading(false);
    }
    const placed = await confirmFarSectors(programData);
    if (!placed) return;
    programData = placed;
    const count = programData.features.length;
    if (program.programData.features.length > 0) {
      const confirmed = await confirmDialog({
        title: t('programs.import.confirmTitle', { name: program.name }),
        message: t('programs.import.confirmMessage', {
          count: program.programData.features.length,
          file: file.name,
          imported: count,
        }),
        right: t('programs.import.confirm'),
        danger: true,
      });
      if (!confirmed) return;
    }
    const detail = await update.run(sprinkler.id, program.id, { name: program.name, programData });
    if (detail) showToast({ variant: 'success', title: t('programs.import.done', { count, name: program.name }) });
  };

  return (
    <FileButton
      variant="secondary"
      accept={MAP_FILE_ACCEPT}
      onFile={(file) => void importFile(file)}
      disabled={reading || update.isPending || offlineReason !== undefined}
      title={offlineReason}
    >
      {t('programs.actions.import')}
    </FileButton>
  );
}
