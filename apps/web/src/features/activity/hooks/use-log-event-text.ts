import { type LogEntry, logEntryContext, logEntryParams } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { logEventText } from '@/i18n/log-event-text';

/** Each event type's title, and its subtitle with the entry's two parameters (docs/product.md#entities). */
export function useLogEventText(): (entry: LogEntry) => { title: string; subtitle: string } {
  const { t, i18n } = useTranslation();
  return (entry) => logEventText(t, i18n.language, entry.eventType, logEntryParams(entry), logEntryContext(entry));
}
