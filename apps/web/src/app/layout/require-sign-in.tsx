import { startTransition, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useLocalize } from '@/i18n/use-locale';
import { useSession } from '@/lib/session';
import { RainLoader } from '@/ui/global-loader';
import { preloadableLazy } from '@/app/preloadable-lazy';

/**
 * The signed-in screens' server state (each screen fetches the parts of the catalogue it needs),
 * preloaded with the first screen's code (app/routes.tsx).
 */
export const SignedInScreens = preloadableLazy(() => import('./server-state'));

/**
 * Whether the signed-in screens may show: at once when the session was there at the first render,
 * else from a transition once it is. A screen whose code is still on its way then keeps the rain
 * on the page until it has come, rather than suspending into the page's Suspense fallback: React
 * holds back what replaces a fallback until 300 ms after the fallback showed, and the machine page
 * waited that long with its data in (docs/benchmarks.md, "3 December").
 */
function useScreensShown(signedIn: boolean): boolean {
  const [shown, setShown] = useState(signedIn);
  useEffect(() => {
    if (signedIn && !shown) startTransition(() => setShown(true));
  }, [signedIn, shown]);
  return shown;
}

/** Screens behind sign-in: without a session, the login page, which then brings the user back here. */
export function RequireSignIn() {
  const session = useSession();
  const location = useLocation();
  const localize = useLocalize();
  const screensShown = useScreensShown(session.status === 'signed-in');
  if (session.status === 'signed-in') return screensShown ? <SignedInScreens /> : <RainLoader />;
  // Left a login page before the refresh cookie was tried: its answer decides.
  if (session.status === 'unknown') return <RainLoader />;
  const byUser = session.status === 'signed-out' && session.byUser;
  const backHere = byUser ? undefined : `${location.pathname}${location.search}${location.hash}`;
  return <Navigate replace to={localize(paths.login.link(backHere))} />;
}
