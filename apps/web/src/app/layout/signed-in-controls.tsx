import { useEffect } from 'react';
import { AccountMenu } from '@/features/account/components/account-menu';
import { logsKeys } from '@/features/activity/api/get-logs';
import { NotificationsMenu } from '@/features/activity/components/notifications-menu';
import { useAlertToasts } from '@/features/alerts/hooks/use-alert-toasts';
import { useFleetLink } from '@/features/dealers/hooks/use-fleet-link';
import { useFarmsLink } from '@/features/farms/hooks/use-farms-link';
import { onServerChange } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';
import { useUser } from '@/lib/session';
import { ServerState } from './server-state';

/** The unread count follows what the user does: most changes write an event to the log. */
function useUnreadCountFollowingChanges() {
  useEffect(
    () =>
      onServerChange((path) => {
        // Marking events read refreshes the lists itself, keeping the open list's highlights.
        if (!path.startsWith('/logs/')) void readAgain({ queryKey: logsKeys.unreadCount });
      }),
    [],
  );
}

/** Every alert is an entry in the log: the bell's count and the activity list look again. */
const refreshLog = () => void readAgain({ queryKey: logsKeys.all });

/**
 * The account menu, with the farms' screen for a user who belongs to a farm or an administrator,
 * and the dealer's fleet for a member of a dealer that farms have granted access: it reads the
 * farms' list and the fleet, so it renders inside the server state.
 */
function AccountMenuWithFarms() {
  const farmsLink = useFarmsLink(Boolean(useUser()?.admin));
  const fleetLink = useFleetLink();
  return <AccountMenu farmsLink={farmsLink} fleetLink={fleetLink} />;
}

/**
 * The header's buttons for a signed-in user: a chunk of its own, so the login page does not load
 * it. Being on every signed-in page, it also follows the live alerts and shows them as toasts.
 */
export default function SignedInControls() {
  useUnreadCountFollowingChanges();
  useAlertToasts(refreshLog);
  return (
    <ServerState>
      <NotificationsMenu />
      <AccountMenuWithFarms />
    </ServerState>
  );
}
