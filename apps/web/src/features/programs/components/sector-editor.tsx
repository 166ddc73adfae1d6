import type { Position, SprinklerDetail } from '@pivot/contracts';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useLocale } from '@/i18n/use-locale';
import { Button, ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { TextField } from '@/ui/form/text-field';
import { ChevronLeftIcon, ErrorIcon } from '@/ui/other-icons';
import { useAppNavigate } from '@/ui/link';
import { isForbiddenRate } from '@/ui/map/sector-style';
import { Page } from '@/ui/page';
import { showToast } from '@/ui/toast/toast-store';
import { useMediaQuery } from '@/ui/use-media-query';
import { useUpdateProgram } from '../api/update-program';
import { positionsOf, withSector, withoutSector } from '../lib/program-data';
import { cornersOf, hasErrors, rateNumber, rateText, sectorOf, validateSector } from '../lib/sector-form';
import { MAX_CORNERS, shapeError } from '../lib/shape-validity';
import { CornerList } from './corner-list';
import { SectorMap } from './sector-map';
import { useOfflineReason } from '@/lib/use-offline-reason';

/** A touch screen, or a phone-sized one: no right-click to count on. */
const TOUCH_QUERY = '(pointer: coarse), (max-width: 639px)';

export type SectorEditorProps = {
  sprinkler: SprinklerDetail;
  programId: number;
  /**
   * The sector's name from the address. A name no sector of the program has opens a new sector
   * under that name (the "add sector" link picks a free numbered one).
   */
  sectorName: string;
  /** Called before the editor moves to the address of a sector it saved under a new name. */
  onRenamed?: (name: string) => void;
  /** A line the page shows above the editor (the app's: no connection). */
  notice?: ReactNode;
};

/** The middle of what the map shows: where a corner typed into an empty shape starts. */
function centreOf(sprinkler: SprinklerDetail): Position {
  const positions = positionsOf(sprinkler.areaMap);
  if (positions.length === 0) return [sprinkler.lng, sprinkler.lat];
  const sum = positions.reduce((total, [lng, lat]) => [total[0] + lng, total[1] + lat], [0, 0]);
  return [sum[0] / positions.length, sum[1] / positions.length];
}

/**
 * The sector view of docs/product.md#screens: the sector drawn on the machine's field (map first, form below it on
 * a phone), its name and dose, saved into the program, or deleted from it.
 */
export function SectorEditor({ sprinkler, programId, sectorName, onRenamed, notice }: SectorEditorProps) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const locale = useLocale();
  const navigate = useAppNavigate();
  const update = useUpdateProgram();
  const program = sprinkler.programs.find((item) => item.id === programId);
  const backLink = paths.sprinkler.link(sprinkler.id);

  // The sector as stored when the page opened, or null for a new one; saving makes it the stored one.
  const [originalName, setOriginalName] = useState(() =>
    program?.programData.features.some((sector) => sector.properties.name === sectorName) ? sectorName : null,
  );
  const original = program?.programData.features.find((sector) => sector.properties.name === originalName);
  const [values, setValues] = useState(() => ({
    name: sectorName,
    rate: original ? rateText(original.properties.rate, locale) : '',
  }));
  const [corners, setCorners] = useState<Position[]>(() => cornersOf(original));
  const [drawing, setDrawing] = useState(() => !original);
  // The shape before "draw again", brought back when that drawing is cancelled.
  const [cornersBefore, setCornersBefore] = useState<Position[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [removing, setRemoving] = useState(false);
  // No right-click on a touch screen: there a corner is removed in removal mode, with a tap.
  const touch = useMediaQuery(TOUCH_QUERY);
  const form = useRef<HTMLFormElement>(null);
  const mapHint = useRef<HTMLParagraphElement>(null);

  if (!program) {
    return (
      <Page title={t('programs.sector.notFoundTitle')}>
        <Card className="flex flex-col items-start gap-4">
          <p>{t('programs.sector.programNotFound')}</p>
          <ButtonLink variant="secondary" to={backLink}>
            <ChevronLeftIcon className="size-4" />
            {t('programs.sector.back')}
          </ButtonLink>
        </Card>
      </Page>
    );
  }

  const otherSectors = program.programData.features.filter((sector) => sector.properties.name !== originalName);
  const holes = original?.geometry.coordinates.slice(1) ?? [];
  const errors = {
    ...validateSector(
      values,
      corners.length,
      otherSectors.map((sector) => sector.properties.name),
    ),
    shape: shapeError(corners, holes),
  };
  // A shape gone wrong (a corner dragged across an edge) is told at once; the rest once saving is tried.
  const shown = submitted ? errors : { shape: drawing || errors.shape === 'shapeRequired' ? undefined : errors.shape };
  const rate = rateNumber(values.rate);
  const forbidden = rate !== null && isForbiddenRate(rate);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The errors show at once, so that focus can move to the first one.
    flushSync(() => setSubmitted(true));
    if (hasErrors(errors)) {
      const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      (invalid ?? mapHint.current)?.focus();
      return;
    }
    const sector = sectorOf(values, corners, holes);
    const detail = await update.run(sprinkler.id, program.id, {
      name: program.name,
      programData: withSector(program.programData, originalName, sector),
    });
    if (!detail) return;
    setOriginalName(sector.properties.name);
    setSubmitted(false);
    showToast({ variant: 'success', title: t('programs.sector.saved', { name: sector.properties.name }) });
    // The address names the sector as saved, so a reload opens it again.
    if (sector.properties.name !== sectorName) {
      onRenamed?.(sector.properties.name);
      navigate(paths.sector.link(sprinkler.id, program.id, sector.properties.name), { replace: true });
    }
  };

  const deleteSector = async () => {
    if (originalName === null) return;
    const confirmed = await confirmDialog({
      title: t('programs.sector.deleteTitle', { name: originalName }),
      message: t('programs.sector.deleteMessage', { program: program.name }),
      right: t('programs.sector.deleteConfirm'),
      danger: true,
    });
    if (!confirmed) return;
    const detail = await update.run(sprinkler.id, program.id, {
      name: program.name,
      programData: withoutSector(program.programData, originalName),
    });
    if (!detail) return;
    showToast({ variant: 'success', title: t('programs.sector.deleted', { name: originalName }) });
    navigate(backLink);
  };

  const drawAgain = () => {
    setCornersBefore(corners);
    setCorners([]);
    setDrawing(true);
  };
  const cancelDrawing = () => {
    setCorners(cornersBefore);
    setDrawing(false);
  };

  return (
    <Page
      title={
        originalName === null ? t('programs.sector.newTitle') : t('programs.sector.editTitle', { name: originalName })
      }
      description={t('programs.sector.description', { program: program.name, machine: sprinkler.name })}
      actions={
        <ButtonLink variant="secondary" to={backLink}>
          <ChevronLeftIcon className="size-4" />
          {t('programs.sector.back')}
        </ButtonLink>
      }
      width="full"
    >
      {notice}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex flex-col gap-3">
          <SectorMap
            sprinkler={sprinkler}
            otherSectors={otherSectors}
            corners={corners}
            onCornersChange={setCorners}
            drawing={drawing}
            onDrawn={() => setDrawing(false)}
            rate={rate}
            removing={removing && !drawing}
          />
          <div className="flex flex-col items-start gap-3 sm:flex-row sm:justify-between">
            <p
              ref={mapHint}
              tabIndex={-1}
              id="sector-shape-hint"
              className={`min-w-0 text-sm sm:flex-1 ${shown.shape ? 'font-medium text-error' : 'text-ink-muted'}`}
            >
              {shown.shape && <ErrorIcon className="mr-1.5 inline size-4 align-[-3px]" />}
              {shown.shape
                ? t(`programs.sector.errors.${shown.shape}`, { max: MAX_CORNERS })
                : drawing
                  ? t('programs.sector.drawHint')
                  : removing
                    ? t('programs.sector.removeHint')
                    : touch
                      ? t('programs.sector.editHintTouch')
                      : t('programs.sector.editHint')}
            </p>
            <div className="flex flex-wrap gap-2">
              {!drawing && corners.length >= 3 && (
                <Button
                  variant="secondary"
                  aria-pressed={removing}
                  onClick={() => setRemoving(!removing)}
                  className="aria-pressed:border-water aria-pressed:bg-water-soft"
                >
                  {t('programs.sector.removeCorners')}
                </Button>
              )}
              {drawing ? (
                <Button variant="secondary" onClick={cancelDrawing}>
                  {t('programs.sector.cancelDrawing')}
                </Button>
              ) : (
                <Button variant="secondary" onClick={drawAgain}>
                  {corners.length > 0 ? t('programs.sector.drawAgain') : t('programs.sector.draw')}
                </Button>
              )}
            </div>
          </div>
          <CornerList
            corners={corners}
            onChange={(next) => {
              setDrawing(false);
              setCorners(next);
            }}
            centre={centreOf(sprinkler)}
          />
        </div>
        <Card aria-labelledby="sector-form-title">
          <h2 id="sector-form-title" className="mb-4 text-lg font-semibold">
            {t('programs.sector.formTitle')}
          </h2>
          <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
            <TextField
              label={t('programs.sector.name')}
              value={values.name}
              onChange={(event) => setValues({ ...values, name: event.target.value })}
              maxLength={100}
              required
              autoComplete="off"
              error={shown.name && t(`programs.sector.errors.${shown.name}`)}
            />
            <TextField
              label={t('programs.sector.rate')}
              value={values.rate}
              onChange={(event) => setValues({ ...values, rate: event.target.value })}
              inputMode="decimal"
              required
              autoComplete="off"
              hint={
                <>
                  {t('programs.sector.rateHint')}
                  {forbidden && (
                    <span className="mt-1.5 block rounded-md bg-error-soft px-2 py-1 font-semibold text-error">
                      {t('programs.sector.forbiddenNote')}
                    </span>
                  )}
                </>
              }
              error={shown.rate && t(`programs.sector.errors.${shown.rate}`)}
            />
            <div className="flex flex-wrap gap-3 border-t border-line pt-4">
              <Button type="submit" disabled={update.isPending || offlineReason !== undefined} title={offlineReason}>
                {t('programs.sector.save')}
              </Button>
              {originalName !== null && (
                <Button
                  variant="danger"
                  disabled={update.isPending || offlineReason !== undefined}
                  title={offlineReason}
                  onClick={() => void deleteSector()}
                >
                  {t('programs.sector.delete')}
                </Button>
              )}
            </div>
          </form>
        </Card>
      </div>
    </Page>
  );
}
