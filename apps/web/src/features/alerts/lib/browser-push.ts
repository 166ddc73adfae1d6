/**
 * What this browser can do about Web Push: `unsupported` (no service workers or no Push API, or
 * an insecure page), `denied` (the user blocked notifications for the site), `no-worker` (the
 * app's service worker is not registered: the development server), `off` (could be allowed) or
 * `on` (this browser has a subscription).
 */
export type BrowserPushState = 'unsupported' | 'denied' | 'no-worker' | 'off' | 'on';

export function browserSupportsPush(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The app's service worker, if one is registered for this page. */
export async function pushRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!browserSupportsPush()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function readBrowserPushState(): Promise<BrowserPushState> {
  if (!browserSupportsPush()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const registration = await pushRegistration();
  if (!registration) return 'no-worker';
  return (await registration.pushManager.getSubscription()) ? 'on' : 'off';
}

/** A base64url text (the server's VAPID key) as the bytes `pushManager.subscribe` takes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replaceAll('-', '+')
    .replaceAll('_', '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
