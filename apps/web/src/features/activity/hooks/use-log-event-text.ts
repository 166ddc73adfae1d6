import { type LogEntry, logEntryParams } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';

const MOTIONS = ['front', 'back', 'stop'] as const;
type Motion = (typeof MOTIONS)[number];
const isMotion = (value: string): value is Motion => (MOTIONS as readonly string[]).includes(value);

/** Each event type's title, and its subtitle with the entry's two parameters (spec §3). */
export function useLogEventText(): (entry: LogEntry) => { title: string; subtitle: string } {
  const { t } = useTranslation();
  return (entry) => {
    const params = logEntryParams(entry);
    const motion = params.motion ?? '';
    const values = { ...params, motion: isMotion(motion) ? t(`activity.motion.${motion}`) : motion };
    // An alarm without a reason reads "reports an alarm", not "reports an alarm: ".
    const subtitle =
      entry.eventType === 'sprinkler_alarm' && !params.detail
        ? t('activity.events.sprinkler_alarm.subtitle', { ...values, context: 'noDetail' })
        : t(`activity.events.${entry.eventType}.subtitle`, values);
    return { title: t(`activity.events.${entry.eventType}.title`), subtitle: subtitle.trim() };
  };
}
