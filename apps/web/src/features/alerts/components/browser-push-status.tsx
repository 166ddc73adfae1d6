import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { useBrowserPush } from '../hooks/use-browser-push';
import type { BrowserPushState } from '../lib/browser-push';

const STATE_TEXT = {
  unsupported: 'alerts.push.unsupported',
  denied: 'alerts.push.denied',
  'no-worker': 'alerts.push.noWorker',
  off: 'alerts.push.off',
  on: 'alerts.push.on',
} as const satisfies Record<BrowserPushState, string>;

/**
 * Whether this browser receives push notifications, with the button that allows or stops them;
 * where it cannot (no support, blocked, no service worker) it says why instead.
 */
export function BrowserPushStatus({ channelChosen }: { channelChosen: boolean }) {
  const { t } = useTranslation();
  const push = useBrowserPush();
  const { state } = push;
  return (
    <div className="mt-1 flex flex-col items-start gap-2" data-testid="browser-push">
      <p role="status" className={`text-sm ${state === 'on' ? 'font-medium text-success' : 'text-ink'}`}>
        {state ? t(STATE_TEXT[state]) : t('alerts.push.checking')}
      </p>
      {state === 'on' && !channelChosen && <p className="text-sm text-warning">{t('alerts.push.needsChannel')}</p>}
      {state === 'off' && (
        <Button variant="secondary" disabled={push.isPending} onClick={() => void push.allow()}>
          {t('alerts.push.allow')}
        </Button>
      )}
      {state === 'on' && (
        <Button variant="ghost" disabled={push.isPending} onClick={() => void push.stop()}>
          {t('alerts.push.stop')}
        </Button>
      )}
    </div>
  );
}
