import { AUTOPILOT_CARD_ANCHOR, type AutopilotPlan, type AutopilotPlannedPass } from '@pivot/contracts';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAutopilotPlan } from '../api/get-autopilot-plan';
import { useStartAutopilotPass } from '../api/start-autopilot-pass';
import { numberFormat } from '@/i18n/number-format';
import { dateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { showToast } from '@/ui/toast/toast-store';

/** The passes shown before the farmer asks for the rest: the next few are what a farmer acts on. */
const FIRST_PASSES = 3;

/**
 * What the machine's autopilot will do (docs/autopilot.md, "The plan"): its decision of now, and
 * the passes it would start over the coming days, or why there is nothing to plan. The server
 * tells the texts in the page's language; the figures are formatted here. While the decision of
 * now is to start, a user with control starts that pass with one tap ("One tap").
 */
export function AutopilotPlanSection({ sprinklerId, controls }: { sprinklerId: number; controls: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { data, isPending } = useAutopilotPlan(sprinklerId);
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-3 rounded-lg bg-surface-muted p-4">
      <h3 id={titleId} className="font-semibold">
        {t('autopilot.plan.title')}
      </h3>
      {isPending && <p className="text-sm text-ink-muted">{t('autopilot.plan.loading')}</p>}
      {data === false && <p className="text-sm text-ink-muted">{t('autopilot.plan.loadFailed')}</p>}
      {data && <PlanBody plan={data} sprinklerId={sprinklerId} controls={controls} />}
    </section>
  );
}

function PlanBody({ plan, sprinklerId, controls }: { plan: AutopilotPlan; sprinklerId: number; controls: boolean }) {
  const { t } = useTranslation();
  const passesId = useId();
  const withoutCost = plan.passes.some((pass) => pass.energyKwh === null);
  const priced = plan.passes.some((pass) => pass.cost !== null && pass.zone !== null);
  const estimated = plan.passes.some((pass) => pass.estimated);
  const [all, setAll] = useState(false);
  const shown = all ? plan.passes : plan.passes.slice(0, FIRST_PASSES);
  // With nothing to plan, "not due" says no more than the reason does, and less plainly.
  const tellsNow = plan.reason === null || plan.now.kind !== 'not_due';
  return (
    <>
      {plan.mode === 'off' && <p className="text-sm text-ink-muted">{t('autopilot.plan.offNote')}</p>}
      {tellsNow && (
        <p aria-live="polite">
          <span className="font-medium">{t('autopilot.plan.now')}: </span>
          {plan.now.text}
        </p>
      )}
      {/* The autopilot (not off) would start a pass now, and the advice gives its program. */}
      {controls && plan.mode !== 'off' && plan.now.kind === 'start' && plan.reason === null && (
        <WaterNow sprinklerId={sprinklerId} pass={plan.passes[0]} />
      )}
      {plan.reason !== null ? (
        <p role="note" className="text-sm">
          {t(`autopilot.plan.reasons.${plan.reason}`)}
        </p>
      ) : (
        <>
          <h4 id={passesId} className="text-sm font-medium">
            {t('autopilot.plan.passesTitle', { count: plan.days })}
          </h4>
          {plan.passes.length === 0 ? (
            <p className="text-sm text-ink-muted">{t('autopilot.plan.none', { count: plan.days })}</p>
          ) : (
            <ol aria-labelledby={passesId} className="flex flex-col gap-2">
              {shown.map((pass) => (
                <PassItem key={pass.at} pass={pass} timeZone={plan.timeZone} />
              ))}
            </ol>
          )}
          {plan.passes.length > FIRST_PASSES && (
            <Button variant="secondary" className="self-start" onClick={() => setAll(!all)}>
              {all ? t('autopilot.plan.showFewer') : t('autopilot.plan.showAll', { count: plan.passes.length })}
            </Button>
          )}
          {(withoutCost || priced || estimated) && plan.passes.length > 0 && (
            <ul className="flex flex-col gap-1 text-xs text-ink-muted">
              {estimated && <li>{t('autopilot.plan.estimatedNote')}</li>}
              {priced && <li>{t('autopilot.plan.costNote')}</li>}
              {withoutCost && <li>{t('autopilot.plan.costHint')}</li>}
            </ul>
          )}
        </>
      )}
    </>
  );
}

/**
 * "Water now as advised": one tap, no dialog, since the line above it says what is sent (the
 * pass of now: its sectors and water) and that it starts now. Disabled while it is under way and
 * while the connection is lost. Arriving by an "Irrigation due" alert (the card's anchor), the
 * page scrolls to it.
 */
function WaterNow({ sprinklerId, pass }: { sprinklerId: number; pass: AutopilotPlannedPass | undefined }) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const start = useStartAutopilotPass();
  const button = useRef<HTMLButtonElement>(null);
  const { hash } = useLocation();
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current || hash !== `#${AUTOPILOT_CARD_ANCHOR}`) return;
    arrived.current = true;
    button.current?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [hash]);
  const whole = numberFormat(i18n.language, { maximumFractionDigits: 0 });
  const tenth = numberFormat(i18n.language, { maximumFractionDigits: 1 });
  const tap = async () => {
    const detail = await start.run(sprinklerId);
    if (detail) showToast({ variant: 'success', title: t('autopilot.waterNow.started') });
  };
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-water bg-surface p-3">
      <p className="text-sm">
        {pass
          ? t('autopilot.waterNow.sends', {
              sectors: pass.areas.join(', '),
              mm: tenth.format(pass.waterMm),
              m3: whole.format(pass.waterM3),
            })
          : t('autopilot.waterNow.sendsProgram')}
      </p>
      <Button
        ref={button}
        className="self-start"
        disabled={start.isPending || offlineReason !== undefined}
        title={offlineReason}
        onClick={() => void tap()}
      >
        {t('autopilot.waterNow.button')}
      </Button>
    </div>
  );
}

/** One coming pass: when it starts and by when it is due, its sectors, water, tariff, energy and cost. */
function PassItem({ pass, timeZone }: { pass: AutopilotPlannedPass; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const dates = dateTimeFormat(useLocale(), timeZone);
  const whole = numberFormat(i18n.language, { maximumFractionDigits: 0 });
  const tenth = numberFormat(i18n.language, { maximumFractionDigits: 1 });
  const price = numberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const start = dates.dateTime(pass.at);
  const zone = pass.zone;
  return (
    <li aria-label={start} className="rounded-lg border border-line bg-surface p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-semibold">
          {t('autopilot.plan.start')} {start}
        </span>
        {pass.estimated && <Badge tone="muted">{t('autopilot.plan.estimated')}</Badge>}
        {pass.late && <Badge tone="warning">{t('autopilot.plan.late')}</Badge>}
      </div>
      <p className="text-ink-muted">{t('autopilot.plan.due', { time: dates.dateTime(pass.dueAt) })}</p>
      {pass.queued && <QueuedNote queued={pass.queued} timeZone={timeZone} />}
      <dl className="mt-2 flex flex-col gap-0.5">
        <Row label={t('autopilot.plan.sectors')}>{pass.areas.join(', ')}</Row>
        <Row label={t('autopilot.plan.water')}>
          {t('autopilot.plan.waterValue', { mm: tenth.format(pass.waterMm), m3: whole.format(pass.waterM3) })}
        </Row>
        <Row label={t('autopilot.plan.tariff')}>
          {zone
            ? t('autopilot.plan.zoneValue', {
                tariff: zone.tariff,
                zone: t(`autopilot.zones.${zone.zone}`),
                price: price.format(zone.pricePerKwh),
                currency: zone.currency,
              })
            : t('autopilot.plan.noTariff')}
        </Row>
        {pass.energyKwh !== null && (
          <Row label={t('autopilot.plan.cost')}>
            {zone && pass.cost !== null
              ? t('autopilot.plan.costValue', {
                  kwh: whole.format(pass.energyKwh),
                  cost: whole.format(pass.cost),
                  currency: zone.currency,
                })
              : t('autopilot.plan.energyValue', { kwh: whole.format(pass.energyKwh) })}
          </Row>
        )}
      </dl>
    </li>
  );
}

/**
 * A pass waiting for its pump: the machines before it (those the reader is not granted, unnamed:
 * "another machine on this pump"), and when it would start with the pump free.
 */
function QueuedNote({ queued, timeZone }: { queued: NonNullable<AutopilotPlannedPass['queued']>; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const dates = dateTimeFormat(useLocale(), timeZone);
  const names = [
    ...queued.behind,
    ...(queued.unnamed > 0 ? [t('autopilot.plan.queued.unnamed', { count: queued.unnamed })] : []),
  ];
  return (
    <p className="text-ink-muted">
      {t('autopilot.plan.queued.behind', {
        names: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(names),
        time: dates.dateTime(queued.wouldStartAt),
      })}
    </p>
  );
}

/** A figure of a pass: its name, then its value, on one line while the card is wide enough. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
