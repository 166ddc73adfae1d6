import { type ComponentType, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { connection } from '@/lib/connection';
import { NoSignalIcon } from '@/ui/icons';

/**
 * A part of a page whose code comes after the page's first screen (lib/after-first-screen.ts):
 * the header's menus, the machine page's cards below its map. In a field the connection can go
 * between the page's data and such a part's code: the part then shows, in its place only, a quiet
 * note that it has not been loaded for want of a connection, the rest of the page goes on with
 * what it knew, and the part is fetched again by itself when the connection is back (React.lazy
 * would keep the failure, and the page's error boundary would show the error page instead).
 */
export function laterPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  { compact = false }: { compact?: boolean } = {},
): ComponentType<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  /** Whether a failure while the app thought it was online has been told to the connection. */
  let toldConnection = false;
  const fetchPart = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // Not kept: the next attempt fetches again.
        loading = undefined;
        throw error;
      },
    ));

  function LaterPart(props: Props) {
    const [component, setComponent] = useState(() => loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);

    useEffect(() => {
      if (component) return;
      let current = true;
      let stopWaiting: (() => void) | undefined;
      fetchPart().then(
        (code) => current && setComponent(() => code),
        () => {
          if (!current) return;
          setFailed(true);
          // The code could not be fetched although the app thought it online: a phone may say so
          // with no route to the server. The connection's probe tells when it answers again; told
          // once, so that a file the server no longer has does not make the page say it is offline.
          if (connection.isOnline() && !toldConnection) {
            toldConnection = true;
            connection.noteNoAnswer();
          }
          // The connection is back: the part is fetched again, on the same page.
          let wasOnline = connection.isOnline();
          stopWaiting = connection.subscribe(() => {
            const online = connection.isOnline();
            if (online && !wasOnline) {
              stopWaiting?.();
              setFailed(false);
              setAttempt((previous) => previous + 1);
            }
            wasOnline = online;
          });
        },
      );
      return () => {
        current = false;
        stopWaiting?.();
      };
    }, [component, attempt]);

    if (component) {
      const Part = component;
      return <Part {...props} />;
    }
    return failed ? <NotLoadedNote compact={compact} /> : null;
  }
  return LaterPart;
}

/** Where a part of the page could not be fetched: a line, or in a tight place (the header) an icon. */
function NotLoadedNote({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const text = t('common.laterPart.notLoaded');
  if (compact) {
    return (
      <span role="status" data-testid="later-part-not-loaded" title={text} className="text-ink-muted">
        <NoSignalIcon className="size-5" />
        <span className="sr-only">{text}</span>
      </span>
    );
  }
  return (
    <p role="status" data-testid="later-part-not-loaded" className="flex items-start gap-2 text-sm text-ink-muted">
      <NoSignalIcon className="mt-0.5 size-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
