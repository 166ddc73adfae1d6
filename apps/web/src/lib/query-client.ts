import { QueryClient } from '@tanstack/react-query';
import { session } from './session';

/**
 * Server state of the signed-in screens. The API client already retries what may be retried
 * and shows every failure, so queries do not retry on their own; a failed call resolves to
 * false instead of throwing.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

// Whoever signs in next in this tab must not see a single row of the previous account's data.
session.subscribe(() => {
  if (session.get().status !== 'signed-in') queryClient.clear();
});
