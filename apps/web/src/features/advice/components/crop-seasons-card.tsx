import { type CropSeason, type SprinklerDetail, cropAreaNames, seasonYear } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AreaMapImportOutcome, exportAreaMap, useImportAreaMap } from '../api/area-map-file';
import { useCropSeasons } from '../api/get-crop-seasons';
import { useUpdateCropSeasons } from '../api/update-crop-seasons';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { serverErrors } from '../lib/season-form';
import { replaceSeason, seasonYears, seasonsOfYear } from '../lib/season-year';
import { SeasonFormDialog } from './season-form-dialog';
import { useSeasonErrorText } from '../hooks/use-season-error-text';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { FIELD_FORMAT, formatDate } from '@/ui/date-picker/dates';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { FileButton } from '@/ui/file-button';
import { IconButton } from '@/ui/icon-button';
import { ChevronLeftIcon, ChevronRightIcon, PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useOfflineReason } from '@/lib/use-offline-reason';

type Editing = { season: CropSeason | null } | null;

/**
 * What the machine's field grows, one season per crop area and year (docs/advice.md): this
 * year's by default, earlier years' readable. A user with control adds, edits and removes them.
 */
export function CropSeasonsCard({ sprinkler, now = new Date() }: { sprinkler: SprinklerDetail; now?: Date }) {
  const { t } = useTranslation();
  const errorText = useSeasonErrorText();
  const offlineReason = useOfflineReason();
  const currentYear = now.getFullYear();
  const [year, setYear] = useState(currentYear);
  const [editing, setEditing] = useState<Editing>(null);
  const { data: seasons, isPending } = useCropSeasons(sprinkler.id);
  const update = useUpdateCropSeasons();
  const controls = sprinkler.level === 'control';
  const importMap = useImportAreaMap();
  const [importRefusal, setImportRefusal] = useState<Exclude<AreaMapImportOutcome, { ok: true }> | null>(null);
  const areas = cropAreaNames(sprinkler.areaMap);
  const all = seasons || [];
  const years = seasonYears(all, currentYear);
  const shown = seasonsOfYear(all, year);
  const earlier = years.find((candidate) => candidate < year);
  const later = [...years].reverse().find((candidate) => candidate > year);

  const save = async (replaced: CropSeason | null, next: CropSeason | null) => {
    const { body, index } = replaceSeason(all, year, replaced, next);
    const result = await update.run(sprinkler.id, year, body);
    if (!result) return { fields: {}, other: [] };
    if (!result.ok) return serverErrors(result.issues, index);
    return null;
  };

  const remove = async (season: CropSeason) => {
    const confirmed = await confirmDialog({
      title: t('advice.seasons.removeTitle', { name: season.name }),
      message: t('advice.seasons.removeMessage'),
      right: t('advice.seasons.remove'),
      danger: true,
    });
    if (!confirmed) return;
    const problems = await save(season, null);
    if (!problems) showToast({ variant: 'success', title: t('advice.seasons.removed') });
  };

  const importFile = async (file: File) => {
    setImportRefusal(null);
    const outcome = await importMap.run(sprinkler.id, await file.text());
    if (!outcome) return;
    if (outcome.ok) showToast({ variant: 'success', title: t('advice.seasons.mapImported') });
    else setImportRefusal(outcome);
  };

  const dottedDay = useDottedDay();
  const describe = (season: CropSeason) =>
    t('advice.seasons.facts', {
      area: season.polygon ?? t('advice.seasons.wholeCircle'),
      crop: typeof season.crop === 'string' ? t(`advice.crops.${season.crop}`) : t('advice.seasons.customCrop'),
      emergence: dottedDay(season.emergence),
      soil:
        typeof season.soil === 'string'
          ? t(`advice.soils.${season.soil}`)
          : `θFC ${percent(season.soil.fieldCapacity)} %, θWP ${percent(season.soil.wiltingPoint)} %`,
    });

  return (
    <Card aria-labelledby="crop-seasons-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="crop-seasons-title" className="text-lg font-semibold">
          {t('advice.seasons.title')}
        </h2>
        <div role="group" aria-label={t('advice.seasons.yearLabel')} className="flex items-center gap-1">
          <IconButton
            label={t('advice.seasons.previousYear')}
            disabled={earlier === undefined}
            onClick={() => earlier !== undefined && setYear(earlier)}
          >
            <ChevronLeftIcon className="size-4" />
          </IconButton>
          <span className="min-w-12 text-center font-medium tabular-nums" aria-live="polite">
            {year}
          </span>
          <IconButton
            label={t('advice.seasons.nextYear')}
            disabled={later === undefined}
            onClick={() => later !== undefined && setYear(later)}
          >
            <ChevronRightIcon className="size-4" />
          </IconButton>
        </div>
      </div>
      {isPending ? (
        <p className="text-sm text-ink-muted">{t('advice.seasons.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('advice.seasons.none', { year: String(year) })}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {shown.map((season) => (
            <li key={season.name} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="flex min-w-0 flex-col">
                <span className="font-medium">{season.name}</span>
                <span className="text-sm text-ink-muted">{describe(season)}</span>
                {season.polygon !== null && !areas.includes(season.polygon) && (
                  <span className="text-sm text-warning">{t('advice.seasons.offMap', { area: season.polygon })}</span>
                )}
              </div>
              {controls && (
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    aria-label={t('advice.seasons.editLabel', { name: season.name })}
                    disabled={offlineReason !== undefined}
                    title={offlineReason}
                    onClick={() => setEditing({ season })}
                  >
                    {t('advice.seasons.edit')}
                  </Button>
                  <Button
                    variant="ghost"
                    aria-label={t('advice.seasons.removeLabel', { name: season.name })}
                    disabled={offlineReason !== undefined}
                    title={offlineReason}
                    onClick={() => void remove(season)}
                  >
                    {t('advice.seasons.remove')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {controls && (
          <Button
            variant="secondary"
            icon={<PlusIcon className="size-4" />}
            disabled={offlineReason !== undefined}
            title={offlineReason}
            onClick={() => setEditing({ season: null })}
          >
            {t('advice.seasons.add')}
          </Button>
        )}
        <Button variant="ghost" disabled={offlineReason !== undefined} onClick={() => void exportAreaMap(sprinkler)}>
          {t('advice.seasons.exportMap')}
        </Button>
        {controls && (
          <FileButton
            variant="ghost"
            accept=".geojson,.json,application/geo+json"
            inputLabel={t('advice.seasons.importMap')}
            onFile={(file) => void importFile(file)}
            disabled={offlineReason !== undefined || importMap.isPending}
            title={offlineReason ?? t('advice.seasons.importMapHint')}
          >
            {t('advice.seasons.importMap')}
          </FileButton>
        )}
      </div>
      {importRefusal && (
        <div role="alert" className="rounded border border-danger p-2 text-sm">
          <p className="font-medium">
            {'unreadable' in importRefusal
              ? t('advice.seasons.mapUnreadable')
              : t(`errorCodes.${importRefusal.code}.title`)}
          </p>
          {'issues' in importRefusal && (
            <>
              <p>{t(`errorCodes.${importRefusal.code}.message`)}</p>
              <ul className="list-disc pl-5">
                {importRefusal.issues.map((issue) => (
                  <li key={issue.path}>
                    <code>{issue.path.replace(/^body\.?/, '') || '/'}</code>: {errorText(issue.message)}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {editing && (
        <SeasonFormDialog
          season={editing.season}
          areas={areas}
          defaultEmergence={year === currentYear ? formatDate(now, FIELD_FORMAT) : `01.04.${year}`}
          onClose={() => setEditing(null)}
          onSave={async (season) => {
            const problems = await save(editing.season, season);
            if (!problems) {
              showToast({ variant: 'success', title: t('advice.seasons.saved') });
              setEditing(null);
              setYear(seasonYear(season));
            }
            return problems;
          }}
        />
      )}
    </Card>
  );
}

const percent = (fraction: number) => String(Math.round(fraction * 1000) / 10);
