import { readAgain } from '@/lib/query-client';

/** Query keys of the farms' screens: the list (also the header's menu reads it), each farm and what hangs on it. */
export const farmsKeys = {
  all: ['farms'] as const,
  list: ['farms', 'list'] as const,
  /** The farms the lists can be switched to (a farm joined or left changes them). */
  switchable: ['farms', 'switchable'] as const,
  detail: (farmId: number) => ['farms', 'detail', farmId] as const,
  /** A farm's invitations waiting to be accepted. */
  invitations: (farmId: number) => ['farms', 'invitations', farmId] as const,
  /** A farm's grants to dealers. */
  dealerGrants: (farmId: number) => ['farms', 'dealerGrants', farmId] as const,
  /** The dealers a farm may grant access (a dealer the administrator creates shows at once). */
  dealers: ['farms', 'dealers'] as const,
  /** A dealer's members (the server's administrators). */
  dealerMembers: (dealerId: number) => ['farms', 'dealerMembers', dealerId] as const,
};

/**
 * After a change to a farm (or a failure that says the screen was out of date), the farm and the
 * farms' list are read again: a role, a member or a name shows in both, and leaving a farm may
 * take the header's link to the farms away.
 */
export function refreshFarms(): Promise<void> {
  return readAgain({ queryKey: farmsKeys.all });
}
