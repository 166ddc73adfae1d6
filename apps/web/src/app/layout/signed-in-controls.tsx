import { AccountMenu } from '@/features/account/components/account-menu';
import { NotificationsMenu } from '@/features/activity/components/notifications-menu';
import { ServerState } from './server-state';

/** The header's buttons for a signed-in user: a chunk of its own, so the login page does not load it. */
export default function SignedInControls() {
  return (
    <ServerState>
      <NotificationsMenu />
      <AccountMenu />
    </ServerState>
  );
}
