import { PASS_NET_DEPTH_LIMIT_MM, type ProgramFromAdvice, type ProgramFromAdviceSector } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '@/i18n/number-format';
import { useDottedDay } from '@/i18n/use-dotted-day';

/**
 * What the program from the advice gives each sector on the arm's coming revolution, in the order
 * the arm gets there: its due date, its rate and where the rate came from. A sector whose rate the
 * advice did not set is flagged, so that no old rate goes out unchecked.
 */
export function ProgramFromAdvicePreview({ advice }: { advice: ProgramFromAdvice }) {
  const { t, i18n } = useTranslation();
  const format = (value: number) =>
    numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(Math.round(value * 10) / 10);
  return (
    <section className="flex flex-col gap-2" aria-labelledby="advice-program-title">
      <h3 id="advice-program-title" className="text-sm font-semibold">
        {t('advice.program.title')}
      </h3>
      {advice.reason !== null && advice.reason !== 'nothing_due' ? (
        <p className="text-sm text-ink-muted">{t(`advice.program.reasons.${advice.reason}`)}</p>
      ) : (
        <>
          {advice.revolutionHours !== null && (
            <p className="text-sm text-ink-muted">
              {t('advice.program.revolution', {
                hours: format(advice.revolutionHours),
                margin: format(advice.marginHours),
              })}
            </p>
          )}
          <ul className="flex flex-col gap-1.5">
            {advice.sectors.map((sector) => (
              <SectorLine key={sector.name} sector={sector} format={format} />
            ))}
          </ul>
          {advice.reason === 'nothing_due' && (
            <p className="text-sm font-medium">{t('advice.program.reasons.nothing_due')}</p>
          )}
        </>
      )}
    </section>
  );
}

function SectorLine({ sector, format }: { sector: ProgramFromAdviceSector; format: (value: number) => string }) {
  const { t } = useTranslation();
  const dottedDay = useDottedDay();
  const flagged = sector.source === 'kept';
  return (
    <li
      aria-label={sector.name}
      className={`flex flex-col rounded-lg border p-2 text-sm ${flagged ? 'border-warning' : 'border-line'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium">{sector.name}</span>
        <span className="font-semibold tabular-nums">
          {sector.source === 'forbidden' ? t('advice.program.forbiddenRate') : `${format(sector.rate)} mm`}
        </span>
      </div>
      <span className="text-ink-muted">
        {/* Under a tenth of an hour away reads "in 0 h": the arm is over the sector. */}
        {t(sector.arrivalHours < 0.05 ? 'advice.program.dueArmThere' : 'advice.program.due', {
          date: sector.nextIrrigation === null ? t('advice.balance.none') : dottedDay(sector.nextIrrigation),
          hours: format(sector.arrivalHours),
        })}
      </span>
      <span className={flagged ? 'font-medium text-warning' : 'text-ink-muted'}>
        {t(`advice.program.sources.${sector.source}`)}
      </span>
      {sector.restDose !== null && sector.restDose > 0 && (
        <span className="text-ink-muted">
          {t('advice.program.rest', { rest: format(sector.restDose), limit: PASS_NET_DEPTH_LIMIT_MM })}
        </span>
      )}
    </li>
  );
}
