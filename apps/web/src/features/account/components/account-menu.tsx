import { userInitials } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/session';
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from '@/ui/dropdown';
import { FarmIcon, ListIcon, LogoutIcon, PivotIcon, ShieldIcon, UserIcon } from '@/ui/other-icons';
import { useLogout } from '../hooks/use-logout';

/**
 * The round button with the user's initials, and the account menu under it. `farmsLink` adds the
 * farms' screen, for a user who belongs to a farm or an administrator (the app asks the farms' list);
 * `fleetLink` the dealer's fleet, for a member of a dealer some farm has granted access.
 */
export function AccountMenu({ farmsLink = false, fleetLink = false }: { farmsLink?: boolean; fleetLink?: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  const logout = useLogout();
  if (!user) return null;
  return (
    <Dropdown
      trigger={
        <button
          type="button"
          aria-label={t('accountMenu.open', { name: `${user.first_name} ${user.last_name}` })}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-on-primary hover:bg-primary-hover"
        >
          {userInitials(user)}
        </button>
      }
    >
      <DropdownLabel>
        <span className="block text-sm font-semibold tracking-normal text-ink normal-case">
          {user.first_name} {user.last_name}
        </span>
        <span className="block truncate text-xs font-normal tracking-normal normal-case">{user.email}</span>
      </DropdownLabel>
      <DropdownSeparator />
      <DropdownItem to={paths.account.link()} icon={<UserIcon className="size-4" />}>
        {t('nav.account')}
      </DropdownItem>
      <DropdownItem to={paths.activity.link()} icon={<ListIcon className="size-4" />}>
        {t('nav.activity')}
      </DropdownItem>
      {farmsLink && (
        <DropdownItem to={paths.farms.link()} icon={<FarmIcon className="size-4" />}>
          {t('nav.farms')}
        </DropdownItem>
      )}
      {fleetLink && (
        <DropdownItem to={paths.dealer.link()} icon={<PivotIcon className="size-4" />}>
          {t('nav.fleet')}
        </DropdownItem>
      )}
      {user.admin && (
        <DropdownItem to={paths.adminUsers.link()} icon={<ShieldIcon className="size-4" />}>
          {t('nav.admin')}
        </DropdownItem>
      )}
      <DropdownSeparator />
      <DropdownItem onSelect={() => void logout()} icon={<LogoutIcon className="size-4" />}>
        {t('logout.action')}
      </DropdownItem>
    </Dropdown>
  );
}
