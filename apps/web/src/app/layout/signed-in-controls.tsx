import { useEffect } from 'react';
import { AccountMenu } from '@/features/account/components/account-menu';
import { logsKeys } from '@/features/activity/api/get-logs';
import { NotificationsMenu } from '@/features/activity/components/notifications-menu';
import { onServerChange } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { ServerState } from './server-state';

/** The unread count follows what the user does: most changes write an event to the log. */
function useUnreadCountFollowingChanges() {
  useEffect(
    () =>
      onServerChange((path) => {
        // Marking events read refreshes the lists itself, keeping the open list's highlights.
        if (!path.startsWith('/logs/')) void queryClient.invalidateQueries({ queryKey: logsKeys.unreadCount });
      }),
    [],
  );
}

/** The header's buttons for a signed-in user: a chunk of its own, so the login page does not load it. */
export default function SignedInControls() {
  useUnreadCountFollowingChanges();
  return (
    <ServerState>
      <NotificationsMenu />
      <AccountMenu />
    </ServerState>
  );
}
