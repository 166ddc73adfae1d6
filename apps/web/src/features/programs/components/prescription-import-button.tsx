import type { SprinklerDetail } from '@pivot/contracts';
import { type ChangeEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { Button } from '@/ui/button';
import { showToast } from '@/ui/toast/toast-store';
import { usePrescriptionImport } from '../hooks/use-prescription-import';
import { PRESCRIPTION_FILE_ACCEPT, PrescriptionFileTooLarge } from '../lib/prescription-file';
import { PrescriptionDialog } from './prescription-dialog';

/**
 * A variable-rate prescription (a .zip or a GeoJSON file) made into a new program: the file
 * is chosen, the server makes it into sectors, and the preview stores it once the farmer has
 * looked at it. Nothing is stored before.
 */
export function PrescriptionImportButton({
  sprinkler,
  onCreated,
}: {
  sprinkler: SprinklerDetail;
  onCreated: (programId: number) => void;
}) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const input = useRef<HTMLInputElement>(null);
  const prescription = usePrescriptionImport(sprinkler.id);

  const openFile = async (file: File) => {
    try {
      await prescription.open(file);
    } catch (error) {
      showToast(
        error instanceof PrescriptionFileTooLarge
          ? {
              variant: 'warning',
              title: t('programs.prescription.tooLarge.title'),
              message: t('programs.prescription.tooLarge.message', { size: error.maxMegabytes }),
            }
          : { variant: 'error', title: t('programs.prescription.notRead') },
      );
    }
  };

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after fixing it: the input must not keep it.
    event.target.value = '';
    if (file) void openFile(file);
  };

  return (
    <>
      <Button
        variant="secondary"
        disabled={prescription.reading || offlineReason !== undefined}
        title={offlineReason}
        onClick={() => input.current?.click()}
      >
        {prescription.reading ? t('programs.prescription.reading') : t('programs.prescription.action')}
      </Button>
      <input
        ref={input}
        type="file"
        accept={PRESCRIPTION_FILE_ACCEPT}
        onChange={chosen}
        tabIndex={-1}
        aria-hidden="true"
        className="hidden"
      />
      {prescription.shown && (
        <PrescriptionDialog
          sprinkler={sprinkler}
          shown={prescription.shown}
          updating={prescription.updating}
          onChange={(choice) => void prescription.change(choice)}
          onSaved={onCreated}
          onClose={prescription.close}
        />
      )}
    </>
  );
}
