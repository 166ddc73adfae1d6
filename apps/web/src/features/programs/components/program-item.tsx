import type { Program, SprinklerDetail } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useLocale } from '@/i18n/use-locale';
import { Button, ButtonLink } from '@/ui/button';
import { confirmDialog, promptDialog } from '@/ui/dialog/dialogs';
import { ChevronDownIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useDeleteProgram } from '../api/delete-program';
import { useUpdateProgram } from '../api/update-program';
import { downloadFile } from '@/lib/download-file';
import { checkReach, formatDistance, machineReach } from '../lib/import-reach';
import { nextSectorName, programFileName, programGeoJson } from '../lib/program-data';
import { ImportMapButton } from './import-map-button';
import { type ProgramStatus, ProgramStatusBadge } from './program-status-badge';
import { SectorList } from './sector-list';
import { useOfflineReason } from '@/lib/use-offline-reason';

export type ProgramItemProps = {
  sprinkler: SprinklerDetail;
  program: Program;
  /** The selected program is open, and its sectors are the ones on the machine's map. */
  selected: boolean;
  onToggle: () => void;
  status: ProgramStatus | null;
  /** A program of this machine is being sent: one upload at a time. */
  sendBlocked: boolean;
  onSend: (program: Program) => Promise<void>;
  onDeleted: () => void;
};

/**
 * One stored program: its name and state; opened, its sectors and what can be done with it (for a
 * user who may only watch the machine: export).
 */
export function ProgramItem(props: ProgramItemProps) {
  const { sprinkler, program, selected, onToggle, status, sendBlocked, onSend, onDeleted } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const update = useUpdateProgram();
  const remove = useDeleteProgram();
  const detailsId = useId();
  const sectors = program.programData.features;
  const offlineReason = useOfflineReason();
  const busy = update.isPending || remove.isPending || offlineReason !== undefined;
  const runsOnMachine = status === 'active';
  const controls = sprinkler.level === 'control';

  const rename = async () => {
    const typed = await promptDialog({
      title: t('programs.rename.title'),
      message: runsOnMachine ? t('programs.rename.runningNote') : undefined,
      input: { label: t('programs.nameLabel'), initialValue: program.name },
      right: t('programs.rename.confirm'),
    });
    if (typed === false) return;
    const name = typed.trim();
    if (name === program.name) return;
    if (!name) {
      showToast({ variant: 'warning', title: t('programs.nameRequired') });
      return;
    }
    if (sprinkler.programs.some((other) => other.id !== program.id && other.name === name)) {
      showToast({ variant: 'warning', title: t('programs.nameTaken', { name }) });
      return;
    }
    const detail = await update.run(sprinkler.id, program.id, { name, programData: program.programData });
    if (detail) showToast({ variant: 'success', title: t('programs.rename.done', { name }) });
  };

  const deleteProgram = async () => {
    const confirmed = await confirmDialog({
      title: t('programs.delete.title', { name: program.name }),
      message: runsOnMachine ? t('programs.delete.runningNote') : t('programs.delete.message'),
      right: t('programs.delete.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    const detail = await remove.run(sprinkler.id, program.id);
    if (!detail) return;
    onDeleted();
    showToast({ variant: 'success', title: t('programs.delete.done', { name: program.name }) });
  };

  const exportProgram = () =>
    downloadFile(
      programFileName(program.name),
      `${JSON.stringify(programGeoJson(program), null, 2)}\n`,
      'application/geo+json',
    );

  const newSector = nextSectorName(sectors, (number) => t('programs.sectors.defaultName', { number }));

  return (
    <li className={`rounded-lg border ${selected ? 'border-water bg-water-soft/40' : 'border-line'}`}>
      <div className="flex items-center gap-2 p-1.5 pr-3">
        <button
          type="button"
          aria-expanded={selected}
          aria-controls={detailsId}
          onClick={onToggle}
          className="flex min-h-11 min-w-0 flex-1 items-center gap-2 rounded-md px-2 text-left hover:bg-surface-muted"
        >
          <ChevronDownIcon className={`size-4 shrink-0 transition-transform ${selected ? '' : '-rotate-90'}`} />
          <span className="min-w-0 flex-1">
            <span className="block font-semibold break-words">{program.name}</span>
            <span className="block text-sm text-ink-muted">
              {t('programs.sectors.count', { count: sectors.length })}
            </span>
          </span>
        </button>
        {status && <ProgramStatusBadge status={status} />}
      </div>
      {selected && (
        <div id={detailsId} className="flex flex-col gap-3 border-t border-line p-3">
          <OnTheMap sprinkler={sprinkler} program={program} locale={locale} />
          <SectorList
            sectors={sectors}
            link={controls ? { sprinklerId: sprinkler.id, programId: program.id } : undefined}
            label={t('programs.sectors.listLabel', { name: program.name })}
          />
          {controls && (
            <div>
              <ButtonLink variant="secondary" to={paths.sector.link(sprinkler.id, program.id, newSector)}>
                {t('programs.sectors.add')}
              </ButtonLink>
            </div>
          )}
          <div className="flex flex-wrap gap-2 border-t border-line pt-3">
            {controls && (
              <>
                <Button
                  disabled={sectors.length === 0 || sendBlocked || busy}
                  title={offlineReason}
                  onClick={() => void onSend(program)}
                >
                  {t('programs.actions.send')}
                </Button>
                <Button variant="secondary" disabled={busy} title={offlineReason} onClick={() => void rename()}>
                  {t('programs.actions.rename')}
                </Button>
                <ImportMapButton sprinkler={sprinkler} program={program} />
              </>
            )}
            <Button variant="secondary" onClick={exportProgram}>
              {t('programs.actions.export')}
            </Button>
            {controls && (
              <Button variant="danger" disabled={busy} title={offlineReason} onClick={() => void deleteProgram()}>
                {t('programs.actions.delete')}
              </Button>
            )}
          </div>
          {controls && sectors.length === 0 && (
            <p className="text-sm text-ink-muted">{t('programs.send.needsSectors')}</p>
          )}
        </div>
      )}
    </li>
  );
}

/** "Shown on the map", unless some sectors lie where the machine's map would never show them (imported far away). */
function OnTheMap({ sprinkler, program, locale }: { sprinkler: SprinklerDetail; program: Program; locale: string }) {
  const { t } = useTranslation();
  const nearest = checkReach(program.programData, machineReach(sprinkler)).far;
  if (nearest.length === 0) return <p className="text-sm text-ink-muted">{t('programs.shownOnMap')}</p>;
  return (
    <p className="text-sm font-medium text-warning">
      {t('programs.beyondReach', { count: nearest.length, distance: formatDistance(nearest[0]!.distanceM, locale) })}
    </p>
  );
}
