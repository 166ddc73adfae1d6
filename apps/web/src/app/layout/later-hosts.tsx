import { type ComponentType, useEffect, useState } from 'react';
import { type Store, useStore } from '@/config/create-store';
import { useConnection } from '@/lib/connection';
import { dialogStore } from '@/ui/dialog/dialogs';
import { toastStore } from '@/ui/toast/toast-store';

/**
 * The toasts' and the dialogs' views are not needed to paint a page: their code (with the toasts'
 * icons, swipe and links) comes once the first toast or dialog waits in its store, or earlier by
 * preloadHosts() (after a signed-in visit's first screen, root-layout.tsx), so that one raised
 * later, with the connection gone, is shown from what has come. A fetch that fails is tried again
 * at the next toast or dialog, or when the connection comes back; what waits in the store meanwhile
 * is shown then.
 */
function laterHost<Item>(load: () => Promise<ComponentType>, store: Store<readonly Item[]>) {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const shown = new Set<() => void>();
  const fetchHost = () =>
    (loading ??= load().then(
      (host) => {
        loaded = host;
        for (const show of shown) show();
        return host;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const preload = () => void fetchHost().catch(() => undefined);

  function LaterHost() {
    const [View, setView] = useState(() => loaded);
    const wanted = useStore(store).length > 0;
    const online = useConnection().online;
    useEffect(() => {
      if (View) return;
      const show = () => setView(() => loaded);
      shown.add(show);
      if (loaded) show();
      else if (wanted && online) preload();
      return () => void shown.delete(show);
    }, [View, wanted, online]);
    return View ? <View /> : null;
  }
  return { LaterHost, preload };
}

const toasts = laterHost(async () => (await import('@/ui/toast/toaster')).Toaster, toastStore);
const dialogs = laterHost(async () => (await import('@/ui/dialog/dialog-host')).DialogHost, dialogStore);

export const LaterToaster = toasts.LaterHost;
export const LaterDialogHost = dialogs.LaterHost;

/** Fetches both views' code now. */
export function preloadHosts(): void {
  toasts.preload();
  dialogs.preload();
}
