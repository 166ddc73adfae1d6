import { lazy } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useLocalize } from '@/i18n/use-locale';
import { useSession } from '@/lib/session';

const SignedInScreens = lazy(() => import('./server-state'));

/** Screens behind sign-in: without a session, the login page, which then brings the user back here. */
export function RequireSignIn() {
  const session = useSession();
  const location = useLocation();
  const localize = useLocalize();
  if (session.status === 'signed-in') return <SignedInScreens />;
  const byUser = session.status === 'signed-out' && session.byUser;
  const backHere = byUser ? undefined : `${location.pathname}${location.search}${location.hash}`;
  return <Navigate replace to={localize(paths.login.link(backHere))} />;
}
