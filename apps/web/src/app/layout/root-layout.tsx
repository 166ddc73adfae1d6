import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useSession } from '@/lib/session';
import { RainLoader } from '@/ui/global-loader';
import { ErrorBoundary } from './error-boundary';
import { StatusPage } from './error-page';
import { Header } from './header';
import { LaterDialogHost, LaterToaster, preloadHosts } from './later-hosts';

/** A screen whose code arrives quickly shows no loader; one that takes longer shows the rain. */
const LOADER_DELAY_MS = 300;

export function DelayedLoader() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), LOADER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return shown ? <RainLoader /> : null;
}

/**
 * Every page: header, content, and the app-wide toasts and dialogs. The toasts' and the dialogs'
 * code comes with the first of them, or once a signed-in visit's first screen has shown its data
 * (lib/after-first-screen.ts), as the header's menus do (later-hosts.tsx).
 */
export function RootLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const signedIn = useSession().status === 'signed-in';
  useEffect(() => {
    if (!signedIn) return;
    void import('@/lib/after-first-screen').then(({ afterFirstScreen }) => afterFirstScreen()).then(preloadHosts);
  }, [signedIn]);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-surface px-4 py-2 font-semibold focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('header.skipToContent')}
      </a>
      <Header />
      <main id="main" className="flex-1 px-4 py-6 sm:px-6 sm:py-10">
        <ErrorBoundary key={pathname} fallback={<StatusPage status={500} />}>
          <Suspense fallback={<DelayedLoader />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
      <LaterToaster />
      <LaterDialogHost />
    </div>
  );
}
