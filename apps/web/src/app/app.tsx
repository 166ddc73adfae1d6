import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { i18n } from '@/i18n/i18n';
import { useSession } from '@/lib/session';
import { RainLoader } from '@/ui/global-loader';
import { AppRoutes } from './routes';

/** Until the refresh cookie has been tried (main.tsx starts that), nobody knows whether the user is signed in. */
function SessionGate() {
  const session = useSession();
  return session.status === 'unknown' ? <RainLoader /> : <AppRoutes />;
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
