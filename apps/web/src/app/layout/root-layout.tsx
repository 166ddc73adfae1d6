import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { DialogHost } from '@/ui/dialog/dialog-host';
import { RainLoader } from '@/ui/global-loader';
import { Toaster } from '@/ui/toast/toaster';
import { ErrorBoundary } from './error-boundary';
import { StatusPage } from './error-page';
import { Header } from './header';

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

/** Every page: header, content, and the app-wide toasts and dialogs. */
export function RootLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
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
      <Toaster />
      <DialogHost />
    </div>
  );
}
