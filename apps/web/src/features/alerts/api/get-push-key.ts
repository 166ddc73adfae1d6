import { type PushKey, alertsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';

/** The server's VAPID public key: the browser's applicationServerKey for a push subscription. */
export function getPushKey(): Promise<PushKey | false> {
  return callEndpoint(alertsEndpoints.pushKey, {});
}
