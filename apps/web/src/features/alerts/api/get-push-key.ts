import { type PushKey, PushKeySchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';

/** The server's VAPID public key: the browser's applicationServerKey for a push subscription. */
export function getPushKey(): Promise<PushKey | false> {
  return apiCall({ method: 'GET', path: '/push/key', response: PushKeySchema });
}
