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
    return {
      title: t(`activity.events.${entry.eventType}.title`),
      subtitle: t(`activity.events.${entry.eventType}.subtitle`, values),
    };
  };
}
