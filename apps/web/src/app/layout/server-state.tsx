import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from '@/lib/query-client';

/**
 * Server state (TanStack Query) for what a signed-in user sees. It is a chunk of its own, so
 * the login page and the other signed-out screens load without it.
 */
export function ServerState({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export default function SignedInScreens() {
  return (
    <ServerState>
      <Outlet />
    </ServerState>
  );
}
