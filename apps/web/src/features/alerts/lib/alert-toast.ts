import { type Alert, INCIDENT_LOG_EVENTS } from '@pivot/contracts';
import type { TFunction } from 'i18next';
import { paths } from '@/config/paths';
import type { ToastInput } from '@/ui/toast/toast-store';

/**
 * The toast of a live alert, in the language `t` speaks: the title and subtitle of its
 * activity-log event (the same words the bell and the activity page use), a warning when an
 * incident begins and a success when it ends, with a link to the machine.
 */
export function alertToast(alert: Alert, t: TFunction): ToastInput {
  const event = INCIDENT_LOG_EVENTS[alert.kind][alert.phase];
  const detail = alert.detail.trim();
  const values = { machine: alert.sprinklerName, detail };
  // An alarm without a reason reads "reports an alarm", not "reports an alarm: ".
  const subtitle =
    event === 'sprinkler_alarm' && !detail
      ? t('activity.events.sprinkler_alarm.subtitle', { ...values, context: 'noDetail' })
      : t(`activity.events.${event}.subtitle`, values);
  return {
    variant: alert.phase === 'began' ? 'warning' : 'success',
    title: t(`activity.events.${event}.title`),
    message: subtitle.trim(),
    action: { label: t('alerts.openMachine'), to: paths.sprinkler.link(alert.sprinklerId) },
  };
}
