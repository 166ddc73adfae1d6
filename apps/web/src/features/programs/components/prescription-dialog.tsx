import type { SprinklerDetail } from '@pivot/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { FormDialog } from '@/ui/form-dialog';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateProgram } from '../api/create-program';
import type { PrescriptionChoice, ShownPrescription } from '../hooks/use-prescription-import';
import { programNameOf } from '../lib/prescription-file';
import { PrescriptionChoices } from './prescription-choices';
import { PrescriptionMap } from './prescription-map';
import { PrescriptionSectorsTable } from './prescription-sectors-table';

export type PrescriptionDialogProps = {
  sprinkler: SprinklerDetail;
  shown: ShownPrescription;
  /** A change of the choices is being made into a new preview. */
  updating: boolean;
  onChange: (choice: PrescriptionChoice) => void;
  /** Called with the new program's id once it is stored. */
  onSaved: (programId: number) => void;
  onClose: () => void;
};

/**
 * The program a prescription makes, beside the prescription, before it is stored: the map, the
 * difference per sector and the water of the whole circle, the choices that read the file
 * differently, and the name it is saved under (the file's, unless the farmer changes it).
 */
export function PrescriptionDialog({
  sprinkler,
  shown,
  updating,
  onChange,
  onSaved,
  onClose,
}: PrescriptionDialogProps) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const create = useCreateProgram();
  const [name, setName] = useState(() => programNameOf(shown.file.fileName));
  const nameField = useRef<HTMLDivElement>(null);
  const { preview } = shown;
  const trimmed = name.trim();
  let nameError: string | undefined;
  if (!trimmed) nameError = t('programs.nameRequired');
  else if (sprinkler.programs.some((program) => program.name === trimmed)) {
    nameError = t('programs.nameTaken', { name: trimmed });
  }

  const save = async () => {
    if (nameError) {
      nameField.current?.querySelector('input')?.focus();
      return;
    }
    const detail = await create.run(sprinkler.id, { name: trimmed, programData: preview.programData });
    if (!detail) return;
    const created = detail.programs.find((program) => program.name === trimmed);
    if (created) onSaved(created.id);
    showToast({ variant: 'success', title: t('programs.prescription.saved', { name: trimmed }) });
    onClose();
  };

  return (
    <FormDialog
      title={t('programs.prescription.title')}
      description={t('programs.prescription.description', {
        file: shown.file.fileName,
        count: preview.zoneCount,
        column: preview.column,
      })}
      submitLabel={t('programs.prescription.save')}
      pendingLabel={t('programs.prescription.saving')}
      pending={create.isPending}
      // The preview shown is of the previous choice until the new one has come.
      submitDisabled={updating || offlineReason !== undefined}
      submitTitle={offlineReason}
      onSubmit={save}
      onClose={onClose}
      width="large"
    >
      <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_15rem]">
        <PrescriptionMap preview={preview} pivot={[sprinkler.lat, sprinkler.lng]} />
        <div className="flex flex-col gap-3">
          <PrescriptionChoices
            preview={preview}
            onChange={onChange}
            disabled={updating || create.isPending || offlineReason !== undefined}
          />
          <p role="status" className="text-sm text-ink-muted">
            {updating ? t('programs.prescription.updating') : ''}
          </p>
        </div>
      </div>
      <PrescriptionSectorsTable preview={preview} />
      <div ref={nameField}>
        <TextField
          label={t('programs.nameLabel')}
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          autoComplete="off"
        />
      </div>
    </FormDialog>
  );
}
