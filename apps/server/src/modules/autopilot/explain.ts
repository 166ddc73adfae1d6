/**
 * A decision told in the reader's language, with its reason and figures (docs/autopilot.md), from
 * the server's catalogue (`i18n/messages.ts`, `autopilotText`).
 */
import type { Language } from '@pivot/contracts';
import { type SpokenMoment, type SpokenZone, autopilotText } from '../../i18n/messages';
import { incidentTitle } from '../alerts';
import { addDays, localDate } from '../../time/local-day';
import { localClock } from './autopilot-rules';
import type { Decision, DecisionBody, QueueDecision, TimingDecision, ZoneAt } from './decide';

/** An instant as the reader is told it, against the local day of `now`. */
export function spokenMoment(at: number, now: number, timeZone: string): SpokenMoment {
  const date = localDate(timeZone, at);
  const today = localDate(timeZone, now);
  const { minutes } = localClock(timeZone, at);
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const day = date === today ? 'today' : date === addDays(today, 1) ? 'tomorrow' : 'other';
  return { day, date: `${date.slice(8, 10)}.${date.slice(5, 7)}`, time };
}

const spokenZone = (zone: ZoneAt): SpokenZone => ({ tariff: zone.tariff, zone: zone.zone });

function timingText(decision: TimingDecision, language: Language, now: number, timeZone: string): string {
  const moment = (at: number) => spokenMoment(at, now, timeZone);
  const due = moment(decision.dueAt);
  switch (decision.kind) {
    case 'start':
      return autopilotText('start', language, {
        at: moment(decision.at),
        zone: decision.zone === null ? null : spokenZone(decision.zone),
        due,
        late: decision.late,
      });
    case 'wait':
      if (decision.reason === 'tariff' && decision.zone !== null && decision.zoneNow !== null) {
        return autopilotText('wait_tariff', language, {
          until: moment(decision.until),
          zone: spokenZone(decision.zone),
          price: decision.zone.pricePerKwh,
          priceNow: decision.zoneNow.pricePerKwh,
          currency: decision.zone.currency,
          due,
        });
      }
      return autopilotText('wait_hours', language, { until: moment(decision.until), due, late: decision.late });
    case 'queue_pump':
      return autopilotText('queue_pump', language, {
        pump: decision.pump,
        maxAtOnce: decision.maxAtOnce,
        ahead: decision.ahead,
      });
  }
}

function bodyText(
  decision: DecisionBody & Pick<Decision, 'allowanceWarning'>,
  language: Language,
  now: number,
  timeZone: string,
): string {
  switch (decision.kind) {
    case 'start':
    case 'wait':
    case 'queue_pump':
      return timingText(decision, language, now, timeZone);
    case 'reconcile':
      return autopilotText('reconcile', language, {
        forecastMm: decision.forecastMm,
        fallenMm: decision.fallenMm,
        then: timingText(decision.then, language, now, timeZone),
      });
    case 'skip_rain':
      return autopilotText('skip_rain', language, decision);
    case 'pause_wind':
      return autopilotText('pause_wind', language, decision);
    case 'pause_frost':
      return autopilotText('pause_frost', language, decision);
    case 'resume':
      return autopilotText('resume', language, decision);
    case 'refuse': {
      const allowance = decision.allowanceWarning;
      if (decision.reason === 'allowance' && allowance !== null) {
        return autopilotText('refuse_allowance', language, {
          pass: allowance.pass,
          left: Math.max(0, allowance.amount - allowance.used),
          used: allowance.used,
          amount: allowance.amount,
          unit: allowance.unit,
        });
      }
      if (decision.reason === 'offline') return autopilotText('refuse_offline', language);
      if (decision.reason === 'alarm') return autopilotText('refuse_alarm', language);
      if (decision.reason === 'incident') {
        const incident = decision.incident === undefined ? null : incidentTitle(language, decision.incident);
        return autopilotText('refuse_incident', language, { incident });
      }
      if (decision.reason === 'nothing_to_send') return autopilotText('refuse_nothing_to_send', language);
      return autopilotText('refuse_no_station', language);
    }
    case 'not_due':
      return autopilotText('not_due', language, {
        trigger: decision.triggerAt === null ? null : spokenMoment(decision.triggerAt, now, timeZone),
        depletionMm: decision.depletionMm,
        rawMm: decision.rawMm,
      });
    case 'watering':
      return autopilotText('watering', language);
  }
}

/**
 * The decision with the pump's peers the reader is not granted told as "another machine on this
 * pump" (the pump is real, its other machines are not theirs to know): by their ids, or, in a
 * decision kept before it held them, all of them unless the reader sees every machine.
 */
export function peersSeenBy(
  decision: Decision,
  reader: { language: Language; seesAll: boolean; sees: (sprinklerId: number) => boolean },
): Decision {
  const told = (queue: QueueDecision): QueueDecision => {
    if (reader.seesAll) return queue;
    const unseen = new Set(
      queue.ahead.filter((_, index) => {
        const id = queue.aheadIds?.[index];
        return id === undefined || !reader.sees(id);
      }),
    );
    if (unseen.size === 0) return queue;
    const named = (names: string[]) => {
      const kept = names.filter((name) => !unseen.has(name));
      const hidden = names.length - kept.length;
      return hidden === 0 ? kept : [...kept, autopilotText('pump_peers_unnamed', reader.language, { count: hidden })];
    };
    return { ...queue, wateringNow: named(queue.wateringNow), ahead: named(queue.ahead) };
  };
  if (decision.kind === 'queue_pump') return { ...decision, ...told(decision) };
  if (decision.kind === 'reconcile' && decision.then.kind === 'queue_pump') {
    return { ...decision, then: told(decision.then) };
  }
  return decision;
}

/**
 * The decision's text in `language`: what was decided, why, with its figures; and, at 80 % of
 * the season's allowance, the allowance after it (not again after a refusal that names it).
 */
export function explainDecision(decision: Decision, language: Language, now: number, timeZone: string): string {
  const text = bodyText(decision, language, now, timeZone);
  const warning = decision.allowanceWarning;
  if (warning === null || (decision.kind === 'refuse' && decision.reason === 'allowance')) return text;
  return `${text}. ${autopilotText('allowance_warning', language, warning)}`;
}
