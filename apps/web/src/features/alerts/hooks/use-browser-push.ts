import { PushSubscriptionBodySchema } from '@pivot/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/use-action';
import { showToast } from '@/ui/toast/toast-store';
import { addPushSubscription } from '../api/add-push-subscription';
import { getPushKey } from '../api/get-push-key';
import { removePushSubscription } from '../api/remove-push-subscription';
import { type BrowserPushState, base64UrlToBytes, pushRegistration, readBrowserPushState } from '../lib/browser-push';

export type BrowserPush = {
  /** null while the browser is asked. */
  state: BrowserPushState | null;
  isPending: boolean;
  /** Asks the browser's permission, subscribes it and tells the server. */
  allow: () => Promise<void>;
  /** Tells the server to stop and ends the browser's subscription. */
  stop: () => Promise<void>;
};

/** Whether this browser receives alert notifications by Web Push, and the means to change it. */
export function useBrowserPush(): BrowserPush {
  const { t } = useTranslation();
  const [state, setState] = useState<BrowserPushState | null>(null);

  useEffect(() => {
    let current = true;
    void readBrowserPushState().then((read) => current && setState(read));
    return () => {
      current = false;
    };
  }, []);

  const allow = useAction(async () => {
    const registration = await pushRegistration();
    const key = registration && (await getPushKey());
    if (!registration || !key) return;
    let subscription: PushSubscription;
    try {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(key.publicKey),
      });
    } catch {
      setState(await readBrowserPushState());
      if (Notification.permission === 'granted') {
        // Allowed, but the browser's push service could not be reached.
        showToast({ variant: 'error', title: t('alerts.push.failed'), message: t('alerts.push.failedMessage') });
      } else {
        // Dismissed or blocked: the state says which, the toast says that nothing changed.
        showToast({
          variant: 'warning',
          title: t('alerts.push.notAllowed'),
          message: t('alerts.push.notAllowedMessage'),
        });
      }
      return;
    }
    const body = PushSubscriptionBodySchema.safeParse(subscription.toJSON());
    const saved = body.success && (await addPushSubscription(body.data));
    if (!saved) {
      // The server does not know this subscription: the browser must not keep one nobody pushes to.
      await subscription.unsubscribe().catch(() => false);
      if (!body.success) showToast({ variant: 'error', title: t('alerts.push.failed') });
      setState(await readBrowserPushState());
      return;
    }
    setState('on');
    showToast({ variant: 'success', title: t('alerts.push.allowed') });
  });

  const stop = useAction(async () => {
    const registration = await pushRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      if (!(await removePushSubscription({ endpoint: subscription.endpoint }))) return;
      await subscription.unsubscribe().catch(() => false);
    }
    setState(await readBrowserPushState());
    showToast({ variant: 'success', title: t('alerts.push.stopped') });
  });

  return { state, isPending: allow.isPending || stop.isPending, allow: allow.run, stop: stop.run };
}
