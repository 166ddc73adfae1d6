import type { Program, SprinklerDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { confirmDialog, promptDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateProgram } from '../api/create-program';
import { useProgramSending } from '../hooks/use-program-sending';
import { EMPTY_PROGRAM_DATA, machineProgramState } from '../lib/program-data';
import { MachineProgram } from './machine-program';
import { PrescriptionImportButton } from './prescription-import-button';
import { ProgramItem } from './program-item';
import type { ProgramStatus } from './program-status-badge';
import { useOfflineReason } from '@/lib/use-offline-reason';

export type ProgramsPanelProps = {
  sprinkler: SprinklerDetail;
  /** The program whose sectors the map shows; null: the one the machine runs. */
  selectedProgramId: number | null;
  onSelectProgram: (programId: number | null) => void;
};

/**
 * The machine's programs (docs/product.md, #entities and #states): the one it runs with its upload date (and the mismatch
 * warning when it differs from the database), then the stored ones, to select (the map shows
 * the selected one), create (empty, or from a prescription file), rename, delete, send, import into and export. A user who may only
 * watch the machine sees them, opens them and exports them; nothing that would change them is offered.
 */
export function ProgramsPanel({ sprinkler, selectedProgramId, onSelectProgram }: ProgramsPanelProps) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const create = useCreateProgram();
  const sending = useProgramSending(sprinkler);
  const machineState = machineProgramState(sprinkler);
  const controls = sprinkler.level === 'control';

  const statusOf = (program: Program): ProgramStatus | null =>
    sending.phaseOf(program.id) ??
    (machineState.kind === 'matches' && machineState.program.id === program.id ? 'active' : null);

  const newProgram = async () => {
    const typed = await promptDialog({
      title: t('programs.create.title'),
      input: { label: t('programs.nameLabel') },
      right: t('programs.create.confirm'),
    });
    if (typed === false) return;
    const name = typed.trim();
    if (!name) {
      showToast({ variant: 'warning', title: t('programs.nameRequired') });
      return;
    }
    if (sprinkler.programs.some((program) => program.name === name)) {
      showToast({ variant: 'warning', title: t('programs.nameTaken', { name }) });
      return;
    }
    const detail = await create.run(sprinkler.id, { name, programData: EMPTY_PROGRAM_DATA });
    if (!detail) return;
    const created = detail.programs.find((program) => program.name === name);
    if (created) onSelectProgram(created.id);
    showToast({ variant: 'success', title: t('programs.create.done', { name }) });
  };

  const send = async (program: Program) => {
    const confirmed = await confirmDialog({
      title: t('programs.send.confirmTitle', { name: program.name }),
      message: t('programs.send.confirmMessage', { machine: sprinkler.name }),
      right: t('programs.send.confirm'),
    });
    if (confirmed) await sending.send(program);
  };

  return (
    <Card aria-labelledby="programs-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="programs-title" className="text-lg font-semibold">
          {t('programs.title')}
        </h2>
        {controls && (
          <div className="flex flex-wrap gap-2">
            <PrescriptionImportButton sprinkler={sprinkler} onCreated={onSelectProgram} />
            <Button
              disabled={create.isPending || offlineReason !== undefined}
              title={offlineReason}
              onClick={() => void newProgram()}
            >
              {t('programs.create.action')}
            </Button>
          </div>
        )}
      </div>
      <MachineProgram
        sprinkler={sprinkler}
        state={machineState}
        shownOnMap={selectedProgramId === null}
        onShowOnMap={() => onSelectProgram(null)}
      />
      {sprinkler.programs.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('programs.empty')}</p>
      ) : (
        <ul aria-label={t('programs.listLabel')} className="flex flex-col gap-2">
          {sprinkler.programs.map((program) => (
            <ProgramItem
              key={program.id}
              sprinkler={sprinkler}
              program={program}
              selected={program.id === selectedProgramId}
              onToggle={() => onSelectProgram(program.id === selectedProgramId ? null : program.id)}
              status={statusOf(program)}
              sendBlocked={sending.sending}
              onSend={send}
              onDeleted={() => {
                if (program.id === selectedProgramId) onSelectProgram(null);
              }}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}
