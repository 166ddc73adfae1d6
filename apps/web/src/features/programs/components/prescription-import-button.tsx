import type { SprinklerDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { FileButton } from '@/ui/file-button';
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

  return (
    <>
      <FileButton
        variant="secondary"
        accept={PRESCRIPTION_FILE_ACCEPT}
        onFile={(file) => void openFile(file)}
        disabled={prescription.reading || offlineReason !== undefined}
        title={offlineReason}
      >
        {prescription.reading ? t('programs.prescription.reading') : t('programs.prescription.action')}
      </FileButton>
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
