import type { Placeholder } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  grantAccess,
  grantsOf,
  isGranted,
  machineIdsGrantedTo,
  revokeAccess,
  userIdsGrantedTo,
} from './access.repository';

/**
 * Who may use which machine. Every method takes the database or the caller's transaction, so a
 * grant and its log entry commit together. Administrators' access to every machine is not a
 * grant: callers check the admin flag first.
 */
export class AccessService {
  grant(db: Queryable, sprinklerId: number, userId: number): Promise<void> {
    return grantAccess(db, sprinklerId, userId);
  }

  /** False when the user had no access to revoke. */
  revoke(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
    return revokeAccess(db, sprinklerId, userId);
  }

  isGranted(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
    return isGranted(db, sprinklerId, userId);
  }

  /** A subquery of the ids of the machines granted to the user (or a placeholder's), for `inArray` in another module's query. */
  machineIdsOf(db: Queryable, userId: number | Placeholder) {
    return machineIdsGrantedTo(db, userId);
  }

  /** A subquery of the ids of the users granted the machine, for `inArray` in another module's query. */
  userIdsOf(db: Queryable, sprinklerId: number) {
    return userIdsGrantedTo(db, sprinklerId);
  }

  /** The users granted each of the given machines, in one query. */
  async usersOfMachines(db: Queryable, sprinklerIds: number[]): Promise<Map<number, number[]>> {
    const byMachine = new Map<number, number[]>(sprinklerIds.map((id) => [id, []]));
    for (const grant of await grantsOf(db, { sprinklerIds })) byMachine.get(grant.sprinklerId)?.push(grant.userId);
    return byMachine;
  }

  /** The machines granted to each of the given users, in one query. */
  async machinesOfUsers(db: Queryable, userIds: number[]): Promise<Map<number, number[]>> {
    const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
    for (const grant of await grantsOf(db, { userIds })) byUser.get(grant.userId)?.push(grant.sprinklerId);
    return byUser;
  }
}
