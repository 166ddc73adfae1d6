import type { AutopilotStartFailure, LogEventType } from '@pivot/contracts';
import type { TFunction } from 'i18next';
import { DEFAULT_LOCALE, isLocale } from '@/config/locales';
import { numberFormat } from './number-format';
import { dateTimeFormat } from './use-date-time-format';

const MOTIONS = ['front', 'back', 'stop'] as const;
const isMotion = (value: string): value is (typeof MOTIONS)[number] => (MOTIONS as readonly string[]).includes(value);
const AUTOPILOT_MODES = ['off', 'suggest', 'auto'] as const;
const isAutopilotMode = (value: string): value is (typeof AUTOPILOT_MODES)[number] =>
  (AUTOPILOT_MODES as readonly string[]).includes(value);
// The contracts' AUTOPILOT_START_FAILURES, named here: the bell reads them without the contracts' zod.
const START_FAILURES = [
  'unanswered',
  'refused',
  'unreadable',
  'offline',
  'broker_down',
  'clock_wrong',
  'error',
  'interrupted',
] as const satisfies readonly AutopilotStartFailure[];
const isStartFailure = (value: string): value is AutopilotStartFailure =>
  (START_FAILURES as readonly string[]).includes(value);
const ALARM_REASONS = ['pressure_loss'] as const;
const isAlarmReason = (value: string): value is (typeof ALARM_REASONS)[number] =>
  (ALARM_REASONS as readonly string[]).includes(value);

/**
 * An incident's detail as the server records it ("0.2 bar", "pressure_loss") in the page's
 * language: numbers with the locale's decimal separator, the known alarm reasons in words. Its
 * words come from the base catalogue: the bell and the activity page show it without the
 * machines' part.
 */
function readableDetail(t: TFunction, language: string, detail: string): string {
  const pressure = /^(-?\d+(?:\.\d+)?) bar$/.exec(detail);
  if (pressure) {
    const bar = numberFormat(language, { maximumFractionDigits: 2 }).format(Number(pressure[1]));
    return `${bar} bar`;
  }
  if (isStartFailure(detail)) return t(`activity.startFailures.${detail}`);
  return isAlarmReason(detail) ? t(`activity.alarmReasons.${detail}`) : detail;
}

/**
 * An activity-log event's title, and its subtitle with the entry's parameters (docs/product.md#entities), as the
 * activity page, the bell and the live alerts show it; `context` picks the subtitle's variant
 * (logEntryContext: a grant's level, a depth at 100 % learned again, an autopilot taken over).
 */
export function logEventText(
  t: TFunction,
  language: string,
  eventType: LogEventType,
  params: Record<string, string>,
  context?: string,
): { title: string; subtitle: string } {
  const detail = readableDetail(t, language, (params.detail ?? '').trim());
  const motion = params.motion ?? '';
  const record = params.record ?? '';
  const mode = params.mode ?? '';
  const values = {
    ...params,
    detail,
    motion: isMotion(motion) ? t(`activity.motion.${motion}`) : motion,
    // An autopilot's mode is recorded as its name ('suggest'): the page's word for it.
    mode: isAutopilotMode(mode) ? t(`activity.autopilotMode.${mode}`) : mode,
    // A depth or hours at 100 % are recorded with a dot ("4.5"): the page's decimal separator.
    depth: readableDecimal(language, params.depth ?? ''),
    hours: readableDecimal(language, params.hours ?? ''),
    // A farm record is recorded as "05.06.2026 · 3.5 mm": the app's date style and the page's decimal separator.
    record: record
      .replace(/^(\d{2})\.(\d{2})\.(\d{4})/, (_, day: string, month: string, year: string) =>
        dateTimeFormat(isLocale(language) ? language : DEFAULT_LOCALE).day(`${year}-${month}-${day}`),
      )
      .replace(/\b\d+\.\d+(?= (?:mm|%))/g, (value) =>
        numberFormat(language, { maximumFractionDigits: 2 }).format(Number(value)),
      ),
  };
  // An alarm without a reason reads "reports an alarm", not "reports an alarm: ".
  const subtitle =
    eventType === 'sprinkler_alarm' && !detail
      ? t('activity.events.sprinkler_alarm.subtitle', { ...values, context: 'noDetail' })
      : t(`activity.events.${eventType}.subtitle`, { ...values, ...(context ? { context } : {}) });
  return { title: t(`activity.events.${eventType}.title`), subtitle: subtitle.trim() };
}

function readableDecimal(language: string, value: string): string {
  return /^\d+(?:\.\d+)?$/.test(value)
    ? numberFormat(language, { maximumFractionDigits: 2 }).format(Number(value))
    : value;
}
