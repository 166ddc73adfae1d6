import type { ProbeDisagreement, WaterBalanceProbe } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { numberFormat } from '@/i18n/number-format';

/**
 * The table's columns, in order: each header's text key and whether it holds numbers (set right).
 * The depletions side by side; the probe's zone, moisture and reading time under its name, so
 * that the table fits the advice's narrow column without scrolling sideways.
 */
const COLUMNS = [
  { key: 'probe', numeric: false },
  { key: 'model', numeric: true },
  { key: 'measured', numeric: true },
  { key: 'offset', numeric: true },
] as const;

/**
 * The soil probes beside the model (docs/advice.md, "Probes"): each probe's depletion by its
 * reading and the model's in its cell, the difference, and when it was read, so that a farmer
 * sees where they disagree; above it, each zone whose probes disagree and which one the model
 * follows, and why. Nothing when no probe reported.
 */
export function ProbesTable({
  probes,
  disagreements = [],
}: {
  probes: readonly WaterBalanceProbe[];
  disagreements?: readonly ProbeDisagreement[];
}) {
  const { t, i18n } = useTranslation();
  const dates = useDateTimeFormat();
  if (probes.length === 0) return null;
  const format = (value: number | null, signed = false) =>
    value === null
      ? t('advice.balance.none')
      : numberFormat(i18n.language, {
          maximumFractionDigits: 1,
          signDisplay: signed ? 'exceptZero' : 'auto',
        }).format(Math.round(value * 10) / 10);
  return (
    <section className="flex flex-col gap-2">
      <h3 id="advice-probes-title" className="text-sm font-semibold">
        {t('advice.probes.title')}
      </h3>
      <p className="text-sm text-ink-muted">{t('advice.probes.hint')}</p>
      {disagreements.map((disagreement) => (
        <p key={disagreement.zone} role="note" className="rounded border border-warning p-2 text-sm">
          {t('advice.probes.disagreement', {
            probes: disagreement.probes.join(', '),
            zone: disagreement.zone,
            spread: format(disagreement.spread),
            threshold: format(disagreement.threshold),
          })}{' '}
          {t(`advice.probes.follows_${disagreement.reason}`, { probe: disagreement.follows })}
        </p>
      ))}
      {/* Focusable so that a keyboard can scroll the columns a narrow screen cuts off. */}
      <div
        className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-focus"
        tabIndex={0}
        role="region"
        aria-labelledby="advice-probes-title"
      >
        <table className="w-full text-left text-sm" aria-labelledby="advice-probes-title">
          <thead className="text-ink-muted">
            <tr>
              {COLUMNS.map(({ key, numeric }, index) => (
                <th
                  key={key}
                  scope="col"
                  className={['py-1 font-medium', index < COLUMNS.length - 1 && 'pr-3', numeric && 'text-right']
                    .filter(Boolean)
                    .join(' ')}
                >
                  {t(`advice.probes.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {probes.map((probe) => (
              <tr key={probe.id} className="border-t border-line align-top">
                <th scope="row" className="py-1 pr-3 font-medium">
                  {probe.id}
                  <span className={`block text-xs font-normal ${probe.used ? 'text-ink-muted' : 'text-warning'}`}>
                    {probe.used ? t('advice.probes.used') : t(`advice.probes.reasons.${probe.reason ?? 'outside'}`)}
                  </span>
                  {probe.recorded && (
                    <span className="block text-xs font-normal text-ink-muted">{t('advice.probes.recorded')}</span>
                  )}
                  <span className="block text-xs font-normal text-ink-muted">
                    {t('advice.probes.zoneLine', { zone: probe.zone ?? t('advice.balance.none') })}
                  </span>
                  <span className="block text-xs font-normal text-ink-muted tabular-nums">
                    {t('advice.probes.readingLine', {
                      moisture: format(probe.moisture),
                      at: dates.dateTime(probe.readAt),
                    })}
                  </span>
                </th>
                <td className="py-1 pr-3 text-right tabular-nums">{format(probe.modelDepletion)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{format(probe.probeDepletion)}</td>
                <td className="py-1 text-right tabular-nums">{format(probe.offset, true)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
