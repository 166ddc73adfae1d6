import { ProgramBodySchema, type SprinklerDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { WarningIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateProgram } from '../api/create-program';
import { useUpdateProgram } from '../api/update-program';
import type { MachineProgramState } from '../lib/program-data';
import { SectorList } from './sector-list';
import { useOfflineReason } from '@/lib/use-offline-reason';

export type MachineProgramProps = {
  sprinkler: SprinklerDetail;
  state: MachineProgramState;
  /** The map shows the machine's program (no stored program is selected). */
  shownOnMap: boolean;
  onShowOnMap: () => void;
};

/**
 * The program the machine runs, with its upload date. When it differs from the stored program
 * of its name, or no stored program has its name, the warning of docs/product.md#states: the machine's version,
 * tagged as from the machine, can be saved to the database (overwriting the stored one after a
 * confirmation).
 */
export function MachineProgram({ sprinkler, state, shownOnMap, onShowOnMap }: MachineProgramProps) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const { dateTime } = useDateTimeFormat();
  const create = useCreateProgram();
  const update = useUpdateProgram();
  const current = sprinkler.currentProgramData;

  if (!current) {
    return <div className="rounded-lg bg-surface-muted p-3 text-sm text-ink-muted">{t('programs.machine.none')}</div>;
  }

  // Written as the machines list writes it, so the same upload reads the same on both pages.
  const uploaded = sprinkler.currentProgramTimestamp === null ? null : dateTime(sprinkler.currentProgramTimestamp);
  const mismatch = state.kind === 'differs' || state.kind === 'unknown';

  const saveToDatabase = async () => {
    const body = ProgramBodySchema.safeParse({
      name: current.name,
      programData: { type: 'FeatureCollection', features: current.features },
    });
    if (!body.success) {
      showToast({ variant: 'error', title: t('programs.machine.cannotSave') });
      return;
    }
    let saved;
    if (state.kind === 'differs') {
      const confirmed = await confirmDialog({
        title: t('programs.machine.overwriteTitle', { name: current.name }),
        message: t('programs.machine.overwriteMessage'),
        right: t('programs.machine.overwrite'),
        danger: true,
      });
      if (!confirmed) return;
      saved = await update.run(sprinkler.id, state.program.id, body.data);
    } else {
      saved = await create.run(sprinkler.id, body.data);
    }
    if (saved) showToast({ variant: 'success', title: t('programs.machine.saved', { name: current.name }) });
  };

  return (
    <div
      className={`flex flex-col gap-3 rounded-lg border p-3 ${
        mismatch ? 'border-warning bg-warning-soft' : 'border-line bg-surface-muted'
      }`}
    >
      {mismatch && (
        <p className="flex items-start gap-2 font-semibold text-warning">
          <WarningIcon className="mt-0.5 size-5 shrink-0" />
          <span>{t(state.kind === 'differs' ? 'programs.machine.differs' : 'programs.machine.unknown')}</span>
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <p className="text-sm text-ink-muted">{t('programs.machine.title')}</p>
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold break-words">{current.name}</span>
            {mismatch && (
              <span className="rounded-full border border-warning px-2 py-0.5 text-xs font-semibold text-warning">
                {t('programs.machine.tag')}
              </span>
            )}
          </p>
          {uploaded && <p className="text-sm text-ink-muted">{t('programs.machine.uploaded', { date: uploaded })}</p>}
        </div>
        {shownOnMap ? (
          <p className="text-sm text-ink-muted">{t('programs.shownOnMap')}</p>
        ) : (
          <Button variant="secondary" onClick={onShowOnMap}>
            {t('programs.machine.showOnMap')}
          </Button>
        )}
      </div>
      {mismatch && (
        <>
          <SectorList sectors={current.features} label={t('programs.machine.sectorsLabel', { name: current.name })} />
          {/* Saving changes the stored programs: only for a user who may control the machine. */}
          {sprinkler.level === 'control' && (
            <div>
              <Button
                disabled={create.isPending || update.isPending || offlineReason !== undefined}
                title={offlineReason}
                onClick={() => void saveToDatabase()}
              >
                {t('programs.machine.save')}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
