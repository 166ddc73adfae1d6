import type { AccessLevel } from '@pivot/contracts';
import type { Placeholder } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  countMachinesGrantedTo,
  grantAccess,
  grantedLevel,
  grantsOf,
  machineIdsGrantedTo,
  revokeAccess,
  userIdsGrantedTo,
} from './access.repository';

/**
 * Who may use which machine, and how: a grant's level is *watch* (sees everything, changes
 * nothing) or *control* (also moves the machine and changes its programs). Every method takes the
 * database or the caller's transaction, so a grant and its log entry commit together.
 * Administrators' control of every machine is not a grant: callers check the admin flag first.
 */
export class AccessService {
  /** Grants the machine at a level (control unless told), or changes the level of the user's grant. */
  grant(db: Queryable, sprinklerId: number, userId: number, level: AccessLevel = 'control'): Promise<void> {
    return grantAccess(db, sprinklerId, userId, level);
  }

  /** False when the user had no access to revoke. */
  revoke(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
    return revokeAccess(db, sprinklerId, userId);
  }

  /** The level of the user's grant of the machine; null without one. */
  levelOf(db: Queryable, sprinklerId: number, userId: number): Promise<AccessLevel | null> {
    return grantedLevel(db, sprinklerId, userId);
  }

  /**
   * A subquery of the ids of the machines granted to the user (or a placeholder's), only those
   * at `level` when given, for `inArray` in another module's query.
   */
  machineIdsOf(db: Queryable, userId: number | Placeholder, level?: AccessLevel) {
    return machineIdsGrantedTo(db, userId, level);
  }

  /** How many machines the user is granted, counted on their own grants. */
  machineCountOf(db: Queryable, userId: number): Promise<number> {
    return countMachinesGrantedTo(db, userId);
  }

  /** A subquery of the ids of the users granted the machine, for `inArray` in another module's query. */
  userIdsOf(db: Queryable, sprinklerId: number) {
    return userIdsGrantedTo(db, sprinklerId);
  }

  /** The users granted each of the given machines, in one query. */
  async usersOfMachines(db: Queryable, sprinklerIds: number[]): Promise<Map<number, number[]>> {
    return new Map([...(await this.levelsOnMachines(db, sprinklerIds))].map(([id, users]) => [id, [...users.keys()]]));
  }

  /** The machines granted to each of the given users, in one query. */
  async machinesOfUsers(db: Queryable, userIds: number[]): Promise<Map<number, number[]>> {
    return new Map([...(await this.levelsOfUsers(db, userIds))].map(([id, machines]) => [id, [...machines.keys()]]));
  }

  /** For each of the given machines, the level of each user granted it, in one query. */
  async levelsOnMachines(db: Queryable, sprinklerIds: number[]): Promise<Map<number, Map<number, AccessLevel>>> {
    const byMachine = new Map(sprinklerIds.map((id) => [id, new Map<number, AccessLevel>()]));
    for (const grant of await grantsOf(db, { sprinklerIds })) {
      byMachine.get(grant.sprinklerId)?.set(grant.userId, grant.level);
    }
    return byMachine;
  }

  /** For each of the given users, the level of each machine granted to them, in one query. */
  async levelsOfUsers(db: Queryable, userIds: number[]): Promise<Map<number, Map<number, AccessLevel>>> {
    const byUser = new Map(userIds.map((id) => [id, new Map<number, AccessLevel>()]));
    for (const grant of await grantsOf(db, { userIds })) byUser.get(grant.userId)?.set(grant.sprinklerId, grant.level);
    return byUser;
  }
}
