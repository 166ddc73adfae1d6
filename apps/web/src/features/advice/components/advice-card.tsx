import {
  PASS_NET_DEPTH_LIMIT_MM,
  type ProgramBody,
  type SprinklerDetail,
  type WaterBalance,
  type WaterBalanceArea,
} from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProgramFromAdvice } from '../api/get-program-from-advice';
import { useWaterBalance } from '../api/get-water-balance';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { ApplicationDepthSetting } from './application-depth-setting';
import { freeProgramName } from '../lib/program-from-advice';
import { ProbesTable } from './probes-table';
import { ProgramFromAdvicePreview } from './program-from-advice-preview';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { FIELD_FORMAT, formatDate } from '@/ui/date-picker/dates';
import { showToast } from '@/ui/toast/toast-store';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { numberFormat } from '@/i18n/number-format';

export type AdviceCardProps = {
  sprinkler: SprinklerDetail;
  /**
   * Stores a new program and opens it for review; true once stored. The programs feature owns
   * that call and its editor, so the page passes it in.
   */
  onCreateProgram: (body: ProgramBody) => Promise<boolean>;
  now?: Date;
};

/**
 * The water balance's advice for the machine's zones and the active program's sectors, and the
 * program the server makes from it for the arm's coming revolution; a user with control stores
 * that program, reviewed in the program editor. Nothing due: the button says so and makes none.
 */
export function AdviceCard({ sprinkler, onCreateProgram, now = new Date() }: AdviceCardProps) {
  const { t } = useTranslation();
  const offlineReason = useOfflineReason();
  const dottedDay = useDottedDay();
  const { data: balance, isPending } = useWaterBalance(sprinkler.id);
  const { data: advice } = useProgramFromAdvice(sprinkler.id);
  const [creating, setCreating] = useState(false);
  // The balance says why it has no numbers; the program's own reasons come after it.
  const shown = balance && !balance.reason && advice ? advice : null;
  const programData = shown?.programData ?? null;

  const build = async () => {
    if (!shown || !programData) return;
    const name = freeProgramName(
      t('advice.program.name', { date: dottedDay(shown.date) }),
      sprinkler.programs.map((program) => program.name),
    );
    setCreating(true);
    try {
      if (await onCreateProgram({ name, programData })) {
        showToast({ variant: 'success', title: t('advice.program.created', { name }) });
      }
    } finally {
      setCreating(false);
    }
  };

  return (
    <Card aria-labelledby="advice-title" className="flex flex-col gap-3">
      <h2 id="advice-title" className="text-lg font-semibold">
        {t('advice.balance.title')}
      </h2>
      {isPending ? (
        <p className="text-sm text-ink-muted">{t('advice.balance.loading')}</p>
      ) : balance ? (
        <WaterBalanceAdvice balance={balance} today={formatDate(now, FIELD_FORMAT)} />
      ) : (
        <p className="text-sm text-ink-muted">{t('advice.balance.failed')}</p>
      )}
      {shown && <ProgramFromAdvicePreview advice={shown} />}
      {shown && sprinkler.level === 'control' && (shown.programData || shown.reason === 'nothing_due') && (
        <div className="flex flex-col gap-1">
          <Button
            variant="secondary"
            className="self-start"
            disabled={creating || offlineReason !== undefined || programData === null}
            title={offlineReason}
            onClick={() => void build()}
          >
            {programData ? t('advice.program.action') : t('advice.program.nothingDue')}
          </Button>
          {programData && <p className="text-sm text-ink-muted">{t('advice.program.hint')}</p>}
        </div>
      )}
      <ApplicationDepthSetting sprinklerId={sprinkler.id} />
    </Card>
  );
}

/** The balance as read: why there is none, or each zone's and sector's numbers and where the outlook came from. */
export function WaterBalanceAdvice({ balance, today }: { balance: WaterBalance; today: string }) {
  const { t } = useTranslation();
  const dottedDay = useDottedDay();
  if (balance.reason) return <p className="text-sm">{t(`advice.balance.reasons.${balance.reason}`)}</p>;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-ink-muted">
        {t('advice.balance.asOf', { date: dottedDay(balance.date), station: balance.station ?? '—' })}{' '}
        {t(`advice.balance.forecast.${balance.forecast}`)}
        {balance.forecastFallback && ` ${t(`advice.balance.forecastFallback.${balance.forecastFallback}`)}`}
      </p>
      <ApplicationDepthLine depth={balance.applicationDepth} />
      {balance.missingWeatherDays > 0 && (
        <p className="text-sm text-warning">
          {t('advice.balance.missingWeatherDays', { count: balance.missingWeatherDays })}
        </p>
      )}
      <AreaList title={t('advice.balance.zones')} areas={balance.zones} today={today} />
      {balance.sectors.length > 0 && (
        <AreaList title={t('advice.balance.sectors')} areas={balance.sectors} today={today} />
      )}
      <p className="text-sm text-ink-muted">{t('advice.balance.terms')}</p>
      <ProbesTable probes={balance.probes} disagreements={balance.probeDisagreements} />
    </div>
  );
}

/** The machine's depth at 100 %, which turns the doses into percent timers, and where it came from. */
function ApplicationDepthLine({ depth }: { depth: WaterBalance['applicationDepth'] }) {
  const { t, i18n } = useTranslation();
  if (depth === null) return <p className="text-sm text-ink-muted">{t('advice.balance.depthUnknown')}</p>;
  return (
    <p className="text-sm text-ink-muted">
      {t('advice.balance.depthAtFullSpeed', {
        depth: numberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
          depth.depthAtFullSpeed,
        ),
        source: t(`advice.balance.depthSource.${depth.source}`),
      })}
    </p>
  );
}

function AreaList({ title, areas, today }: { title: string; areas: readonly WaterBalanceArea[]; today: string }) {
  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      <ul className="flex flex-col gap-3">
        {areas.map((area) => (
          <AreaAdvice key={area.name} area={area} today={today} />
        ))}
      </ul>
    </section>
  );
}

function AreaAdvice({ area, today }: { area: WaterBalanceArea; today: string }) {
  const { t, i18n } = useTranslation();
  const dottedDay = useDottedDay();
  const format = (value: number) =>
    numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(Math.round(value * 10) / 10);
  const next =
    area.nextIrrigation === null
      ? t('advice.balance.noneDue')
      : area.nextIrrigation === today
        ? t('advice.balance.today')
        : dottedDay(area.nextIrrigation);
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-line p-3" aria-label={area.name}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium">{area.name}</span>
        <span className="text-sm">
          <span className="text-ink-muted">{t('advice.balance.next')}: </span>
          <span className="font-semibold tabular-nums">{next}</span>
        </span>
      </div>
      <DepletionBar
        area={area}
        label={t('advice.balance.depletionBar', {
          mean: format(area.depletion),
          taw: format(area.taw),
          raw: format(area.raw),
        })}
      />
      <dl className="flex flex-col gap-0.5 text-sm">
        <div>
          <dt className="inline text-ink-muted">{t('advice.balance.depletion')}: </dt>
          <dd className="inline tabular-nums">
            {format(area.depletionMin) === format(area.depletionMax)
              ? t('advice.balance.depletionSingle', { mean: format(area.depletion) })
              : t('advice.balance.depletionValue', {
                  mean: format(area.depletion),
                  min: format(area.depletionMin),
                  max: format(area.depletionMax),
                })}
          </dd>
        </div>
        <div className="text-ink-muted tabular-nums">
          <dt className="sr-only">{t('advice.balance.rootZone')}</dt>
          <dd className="inline">{t('advice.balance.rawTaw', { raw: format(area.raw), taw: format(area.taw) })}</dd>
        </div>
        <div>
          <dt className="inline text-ink-muted">{t('advice.balance.dose')}: </dt>
          <dd className="inline tabular-nums">
            {area.netDose === null || area.grossDose === null
              ? t('advice.balance.noneDue')
              : t('advice.balance.doseValue', { net: format(area.netDose), gross: format(area.grossDose) }) +
                (area.restDose !== null && area.restDose > 0
                  ? t('advice.balance.doseRest', { rest: format(area.restDose), limit: PASS_NET_DEPTH_LIMIT_MM })
                  : '')}
          </dd>
        </div>
        <div>
          <dt className="inline text-ink-muted">{t('advice.balance.timer')}: </dt>
          <dd className="inline tabular-nums">
            {area.percentTimer === null
              ? t(area.grossDose === null ? 'advice.balance.noneDue' : 'advice.balance.timerDepthUnknown')
              : area.passes !== null && area.passes > 1
                ? t('advice.balance.passesValue', { count: area.passes, timer: format(area.percentTimer) })
                : t('advice.balance.timerValue', { timer: format(area.percentTimer) })}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/**
 * Depletion against the root zone's water: the bar is TAW, the line RAW (water is due there), the
 * fill the mean depletion and the lighter band its range over the area's cells.
 */
function DepletionBar({ area, label }: { area: WaterBalanceArea; label: string }) {
  const share = (value: number) => (area.taw > 0 ? Math.min(Math.max(value / area.taw, 0), 1) * 100 : 0);
  const due = area.depletion >= area.raw;
  return (
    <div role="img" aria-label={label} className="relative h-3 w-full overflow-hidden rounded-full bg-surface-muted">
      <div
        className="absolute inset-y-0 bg-primary/25"
        style={{
          left: `${share(area.depletionMin)}%`,
          width: `${share(area.depletionMax) - share(area.depletionMin)}%`,
        }}
      />
      <div
        className={`absolute inset-y-0 left-0 ${due ? 'bg-warning' : 'bg-primary'}`}
        style={{ width: `${share(area.depletion)}%` }}
      />
      <div className="absolute inset-y-0 w-0.5 bg-ink" style={{ left: `${share(area.raw)}%` }} />
    </div>
  );
}
