import {
  AccountAlertSettingsSchema,
  AlertDefaultsSchema,
  AlertSettingsSchema,
  PushKeySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from '../alerts';
import { NoContentSchema } from '../common';
import { endpoint } from '../endpoint';
import { OUTBOUND_REFUSALS } from '../errors';

const tag = 'alerts';

export const events = endpoint({
  method: 'GET',
  path: '/alerts/events',
  produces: 'text/event-stream',
  errors: ['too_many_streams', 'too_many_streams_on_server'],
  tag,
  summary: "The signed-in user's alerts as they happen (server-sent events named 'alert')",
});

export const settings = endpoint({
  method: 'GET',
  path: '/account/alerts/',
  answer: AccountAlertSettingsSchema,
  errors: [],
  tag,
  summary: "The signed-in user's alert settings (the defaults until changed)",
});

export const saveSettings = endpoint({
  method: 'PUT',
  path: '/account/alerts/',
  body: AlertSettingsSchema,
  answer: AccountAlertSettingsSchema,
  errors: [],
  tag,
  summary: "Saves the signed-in user's alert settings",
});

export const resetSettings = endpoint({
  method: 'DELETE',
  path: '/account/alerts/',
  answer: AccountAlertSettingsSchema,
  errors: [],
  tag,
  summary: "Goes back to the administrators' defaults",
});

export const defaults = endpoint({
  method: 'GET',
  path: '/admin/alert-defaults/',
  answer: AlertDefaultsSchema,
  errors: [],
  tag,
  summary: 'The alert settings of every user who has not changed theirs (administrators)',
});

export const saveDefaults = endpoint({
  method: 'PUT',
  path: '/admin/alert-defaults/',
  body: AlertDefaultsSchema,
  answer: AlertDefaultsSchema,
  errors: [],
  tag,
  summary: 'Saves the alert defaults (administrators)',
});

export const pushKey = endpoint({
  method: 'GET',
  path: '/push/key',
  answer: PushKeySchema,
  errors: [],
  tag,
  summary: "The server's VAPID public key, a browser's applicationServerKey",
});

export const subscribePush = endpoint({
  method: 'POST',
  path: '/push/subscriptions/',
  body: PushSubscriptionBodySchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['push_keys_invalid', 'push_endpoint_taken', ...OUTBOUND_REFUSALS],
  tag,
  summary: "Adds a browser's Web Push subscription",
});

export const unsubscribePush = endpoint({
  method: 'DELETE',
  path: '/push/subscriptions/',
  body: PushUnsubscribeBodySchema,
  answer: NoContentSchema,
  status: 204,
  errors: [],
  tag,
  summary: "Removes a browser's Web Push subscription",
});
