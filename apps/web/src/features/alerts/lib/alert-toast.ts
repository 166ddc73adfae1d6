import { AUTOPILOT_CARD_ANCHOR, type Alert, INCIDENT_LOG_EVENTS } from '@pivot/contracts';
import type { i18n as I18n } from 'i18next';
import { paths } from '@/config/paths';
import { logEventText } from '@/i18n/log-event-text';
import type { ToastInput } from '@/ui/toast/toast-store';

/**
 * The toast of a live alert, in the page's language: the title and subtitle of its activity-log
 * event (the same words the bell and the activity page use), a warning when an incident begins
 * and a success when it ends, with a link to the machine (an "Irrigation due", to its Autopilot card).
 */
export function alertToast(alert: Alert, i18n: Pick<I18n, 't' | 'language'>): ToastInput {
  const event = INCIDENT_LOG_EVENTS[alert.kind][alert.phase];
  const { title, subtitle } = logEventText(i18n.t, i18n.language, event, {
    machine: alert.sprinklerName,
    detail: alert.detail,
  });
  const dueAlert = alert.kind === 'irrigation_due' && alert.phase === 'began';
  return {
    variant: alert.phase === 'began' ? 'warning' : 'success',
    title,
    message: subtitle,
    action: dueAlert
      ? // "Irrigation due" leads to the Autopilot card, whose "Water now as advised" starts the pass.
        { label: i18n.t('alerts.openAutopilot'), to: paths.sprinkler.link(alert.sprinklerId, AUTOPILOT_CARD_ANCHOR) }
      : { label: i18n.t('alerts.openMachine'), to: paths.sprinkler.link(alert.sprinklerId) },
  };
}
