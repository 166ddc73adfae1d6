import type { Alert, Language, WebhookPayload } from '@pivot/contracts';
import { alertWords } from '../alerts';

/** The machine page's address in the web app, in the reader's language. */
function machineLink(publicUrl: string, language: Language, sprinklerId: number): string {
  return `${publicUrl}${language === 'en' ? '/en' : ''}/sprinklers/${sprinklerId}`;
}

/** What a webhook is sent for an alert (docs/alerts.md), in its owner's language. */
export function alertPayload(
  alert: Alert & { sprinklerInternalId: string },
  language: Language,
  publicUrl: string,
): WebhookPayload {
  const { title, sentence } = alertWords(language, alert);
  return {
    type: 'alert',
    id: `alert-${alert.logEntryId}`,
    time: new Date(alert.timestamp).toISOString(),
    language,
    text: `${title}: ${sentence}`,
    kind: alert.kind,
    phase: alert.phase,
    title,
    machine: { id: alert.sprinklerId, internalId: alert.sprinklerInternalId, name: alert.sprinklerName },
    detail: alert.detail,
    link: machineLink(publicUrl, language, alert.sprinklerId),
  };
}

const TEST_TEXT: Record<Language, string> = {
  en: 'Test from Pivot: this webhook receives alerts',
  pl: 'Test z Pivot: ten webhook odbiera alerty',
};

/** What "Send test" sends. */
export function testPayload(id: string, language: Language, now: number): WebhookPayload {
  return { type: 'test', id, time: new Date(now).toISOString(), language, text: TEST_TEXT[language] };
}
