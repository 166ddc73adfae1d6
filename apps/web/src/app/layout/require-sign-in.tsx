import { lazy } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useLocalize } from '@/i18n/use-locale';
import { useSession } from '@/lib/session';
import { RainLoader } from '@/ui/global-loader';

/** The signed-in screens' server state (each screen fetches the parts of the catalogue it needs). */
const SignedInScreens = lazy(() => import('./server-state'));

/** Screens behind sign-in: without a session, the login page, which then brings the user back here. */
export function RequireSignIn() {
  const session = useSession();
  const location = useLocation();
  const localize = useLocalize();
  if (session.status === 'signed-in') return <SignedInScreens />;
  // Left a login page before the refresh cookie was tried: its answer decides.
  if (session.status === 'unknown') return <RainLoader />;
  const byUser = session.status === 'signed-out' && session.byUser;
  const backHere = byUser ? undefined : `${location.pathname}${location.search}${location.hash}`;
  return <Navigate replace to={localize(paths.login.link(backHere))} />;
}
