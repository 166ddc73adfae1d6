import { FARM_ROLES, type FarmRole } from '@pivot/contracts';

/**
 * What the viewer is to a farm (docs/roles.md): the server's administrator (`operator`, who may do
 * all an owner may, member or not), or their role in it. The server decides each call; these rules
 * only keep the screen from offering what it would refuse.
 */
export type Standing = 'operator' | FarmRole;

/** The server's administrators stand as operators in every farm, whatever their role in it. */
export function standingOf(admin: boolean, role: FarmRole | null): Standing | null {
  if (admin) return 'operator';
  return role;
}

/** Owners and the operator rename a farm. */
export function mayRename(standing: Standing): boolean {
  return standing === 'operator' || standing === 'owner';
}

/** Owners and the operator require two-step sign-in of the farm's members (managers see whether it does). */
export function mayRequireSecondFactor(standing: Standing): boolean {
  return standing === 'operator' || standing === 'owner';
}

/** Owners and managers (and the operator) see a farm's members and grant its machines. */
export function runsFarm(standing: Standing | null): boolean {
  return standing === 'operator' || standing === 'owner' || standing === 'manager';
}

/** Who may give or take a role: owners and the operator any; managers only member and manager. */
export function mayHandle(standing: Standing, role: FarmRole): boolean {
  return standing === 'operator' || standing === 'owner' || (standing === 'manager' && role !== 'owner');
}

/**
 * The roles the viewer may give a member, or none when they may not change this member's role
 * (a manager and an owner): the select then is a plain label.
 */
export function rolesToGive(standing: Standing, current: FarmRole): readonly FarmRole[] {
  if (!mayHandle(standing, current)) return [];
  return FARM_ROLES.filter((role) => mayHandle(standing, role));
}

/** Whether the viewer may remove a member; oneself leaves instead (anyone may). */
export function mayRemove(standing: Standing, member: { id: number; role: FarmRole }, viewerId: number): boolean {
  return member.id !== viewerId && mayHandle(standing, member.role);
}

/** The roles the viewer may invite a person in: owners and the operator any, managers not owner. */
export function rolesToInvite(standing: Standing): readonly FarmRole[] {
  return FARM_ROLES.filter((role) => mayHandle(standing, role));
}
