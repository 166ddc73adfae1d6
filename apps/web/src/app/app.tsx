import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useLocation } from 'react-router';
import { isSessionFreePath } from '@/config/paths';
import { i18n } from '@/i18n/i18n';
import { useDropEarlyAnswersOnLeave } from '@/lib/early-answers';
import { useSession } from '@/lib/session';
import { RainLoader } from '@/ui/global-loader';
import { AppRoutes } from './routes';

/**
 * Until the refresh cookie has been tried (main.tsx starts that), nobody knows whether the user is
 * signed in. The pages for signing in do not wait for it: the login form paints at once, and a
 * user whose session comes back is taken on from there as when signed in already.
 */
export function SessionGate() {
  // The first data a screen asks for early (routes.tsx, SCREEN_DATA) is for the address the app
  // opened at: what its screen has not taken is dropped once the visitor goes elsewhere.
  useDropEarlyAnswersOnLeave();
  const session = useSession();
  const { pathname } = useLocation();
  return session.status === 'unknown' && !isSessionFreePath(pathname) ? <RainLoader /> : <AppRoutes />;
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <BrowserRouter>
        <SessionGate />
      </BrowserRouter>
    </I18nextProvider>
  );
}
