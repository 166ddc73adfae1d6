import { QueryClient, type QueryFilters, onlineManager } from '@tanstack/react-query';
import { connection } from './connection';
import { session } from './session';

/**
 * Server state of the signed-in screens. The API client already retries what may be retried
 * and shows every failure, so queries do not retry on their own; a failed call resolves to
 * false instead of throwing. The cache lives in memory only (docs/web-app.md, "No connection"):
 * while the connection is lost the pages show what it holds, and once it is back every query on
 * screen is read again, however fresh it was.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: 'always', staleTime: 30_000 },
  },
});

// TanStack Query pauses its reads while the connection is lost and resumes them when it is back,
// by the app's own judgement of the connection (failed calls and broken streams as well as the
// browser's online and offline events), not by the browser's alone.
onlineManager.setEventListener((setOnline) => {
  setOnline(connection.isOnline());
  return connection.subscribe(() => setOnline(connection.isOnline()));
});

// Whoever signs in next in this tab must not see a single row of the previous account's data.
session.subscribe(() => {
  if (session.get().status !== 'signed-in') queryClient.clear();
});

/**
 * Reads again what the server may have changed: after the user's own change, or when a live event
 * or a reconnection says so. Marking the queries stale alone is not enough: a query still on its
 * first read (a new search's page, the last page shown meanwhile) keeps that read if it is in
 * flight, begun before the change (TanStack Query joins a first fetch rather than cancel it), and
 * shows what the change replaced. Cancelled first, it is read anew, as every query on screen is.
 */
export async function readAgain(filters?: QueryFilters): Promise<void> {
  await queryClient.cancelQueries(filters);
  await queryClient.invalidateQueries(filters);
}
