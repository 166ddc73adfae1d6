import type { PrescriptionPreview } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '@/i18n/number-format';
import { useLocale } from '@/i18n/use-locale';
import { useRateFormat } from '../hooks/use-rate-format';

const COLUMNS = ['rate', 'prescribed', 'meanDifference', 'covered'] as const;

/**
 * The difference per sector the farmer checks before saving: each sector's one rate beside the
 * range of the prescription under it, how far the two are apart on average and how much of the
 * sector the prescription covers; then the water of the whole circle, prescribed and programmed.
 */
export function PrescriptionSectorsTable({ preview }: { preview: PrescriptionPreview }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const formatRate = useRateFormat();
  const titleId = useId();
  const number = numberFormat(locale, { maximumFractionDigits: 1 });
  const percent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const range = (min: number, max: number) =>
    min === max
      ? formatRate(min)
      : t('programs.prescription.range', { min: number.format(min), max: number.format(max) });

  return (
    <section className="flex flex-col gap-2" aria-labelledby={titleId}>
      <h3 id={titleId} className="text-sm font-semibold">
        {t('programs.prescription.sectorsTitle', { count: preview.sectors.length })}
      </h3>
      {/*
        Focusable so that a keyboard can scroll the columns a narrow screen cuts off, and the rows of a
        prescription of many sectors: they scroll under their header, keeping the name and Save in sight.
      */}
      <div
        className="max-h-[min(20rem,50dvh)] overflow-auto rounded focus-visible:outline-2 focus-visible:outline-focus"
        tabIndex={0}
        role="region"
        aria-labelledby={titleId}
      >
        <table className="w-full text-left text-sm" aria-labelledby={titleId}>
          <thead className="sticky top-0 bg-surface text-ink-muted">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t('programs.prescription.columns.sector')}
              </th>
              {COLUMNS.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={`py-1 text-right font-medium ${index < COLUMNS.length - 1 ? 'pr-3' : ''}`}
                >
                  {t(`programs.prescription.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.sectors.map((sector) => (
              <tr key={sector.name} className="border-t border-line">
                <th scope="row" className="py-1.5 pr-3 font-medium whitespace-nowrap tabular-nums">
                  {sector.name}
                </th>
                <td className="py-1.5 pr-3 text-right font-semibold whitespace-nowrap tabular-nums">
                  {formatRate(sector.rate)}
                </td>
                <td className="py-1.5 pr-3 text-right whitespace-nowrap tabular-nums">
                  {range(sector.prescribedMin, sector.prescribedMax)}
                </td>
                <td className="py-1.5 pr-3 text-right whitespace-nowrap tabular-nums">
                  {formatRate(sector.meanDifference)}
                </td>
                <td className="py-1.5 text-right whitespace-nowrap tabular-nums">
                  {percent.format(sector.coveredShare)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-ink-muted">{t('programs.prescription.tableHint')}</p>
      <PrescriptionVolumes prescribed={preview.prescribedVolume} programmed={preview.programVolume} />
    </section>
  );
}

/** The water over the whole circle: what the prescription asks for, and what the program gives instead. */
function PrescriptionVolumes({ prescribed, programmed }: { prescribed: number; programmed: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const volume = numberFormat(locale, { maximumFractionDigits: 0 });
  const signed = numberFormat(locale, { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
  const signedPercent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const difference = programmed - prescribed;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 rounded-lg bg-surface-muted px-3 py-2 text-sm">
      <dt>{t('programs.prescription.prescribedVolume')}</dt>
      <dd className="text-right whitespace-nowrap tabular-nums">
        {t('programs.prescription.volume', { volume: volume.format(prescribed) })}
      </dd>
      <dt>{t('programs.prescription.programVolume')}</dt>
      <dd className="text-right tabular-nums">
        <span className="whitespace-nowrap">
          {t('programs.prescription.volume', { volume: volume.format(programmed) })}
        </span>
        {prescribed > 0 && (
          <>
            {' '}
            <span className="whitespace-nowrap text-ink-muted">
              {t('programs.prescription.volumeDifference', {
                volume: signed.format(difference),
                share: signedPercent.format(difference / prescribed),
              })}
            </span>
          </>
        )}
      </dd>
    </dl>
  );
}
