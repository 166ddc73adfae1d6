import type { Program, SprinklerDetail } from '@pivot/contracts';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useUpdateProgram } from '../api/update-program';
import { MAP_FILE_ACCEPT, MapImportError, type MapImportProblem, readMapFile } from '../lib/import-map-file';

/**
 * Imports a map file (GeoJSON, KML, zipped shapefile) into a program, replacing its sectors:
 * spec §4 asks first when the program has sectors. A file that cannot be used changes nothing
 * and says why (spec §8: "Incorrect structure of the imported map file").
 */
export function ImportMapButton({ sprinkler, program }: { sprinkler: SprinklerDetail; program: Program }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const update = useUpdateProgram();
  const [reading, setReading] = useState(false);

  const refuse = (problem: MapImportProblem) =>
    showToast({
      variant: 'error',
      title: t('programs.import.incorrect'),
      message: t(`programs.import.problem.${problem}`),
    });

  const importFile = async (file: File) => {
    setReading(true);
    let programData;
    try {
      programData = await readMapFile(file, { defaultName: (number) => t('programs.sectors.defaultName', { number }) });
    } catch (error) {
      refuse(error instanceof MapImportError ? error.problem : 'unreadable');
      return;
    } finally {
      setReading(false);
    }
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

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after fixing it: the input must not keep it.
    event.target.value = '';
    if (file) void importFile(file);
  };

  return (
    <>
      <Button variant="secondary" disabled={reading || update.isPending} onClick={() => input.current?.click()}>
        {t('programs.actions.import')}
      </Button>
      <input
        ref={input}
        type="file"
        accept={MAP_FILE_ACCEPT}
        onChange={chosen}
        tabIndex={-1}
        aria-hidden="true"
        className="hidden"
      />
    </>
  );
}
