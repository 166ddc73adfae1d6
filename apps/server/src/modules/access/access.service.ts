import type { AccessLevel, FarmRole } from '@pivot/contracts';
import { type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { AppError } from '../../errors';
import {
  countMachinesUsableBy,
  effectiveLevel,
  grantAccess,
  grantsOf,
  machineIdsInFarm,
  machineIdsUsableBy,
  revokeAccess,
  usableOf,
  userIdsGrantedTo,
} from './access.repository';
import {
  type DealerGrantRow,
  type DealerRow,
  dealerActingOn,
  deleteDealerGrant,
  deleteDealerMember,
  findDealer,
  insertDealer,
  insertDealerMember,
  listDealerGrantsOfFarm,
  listDealerMemberIds,
  listDealers,
  listFarmsDealtTo,
  saveDealerGrant,
} from './dealers.repository';
import {
  type FarmRow,
  type FarmSummaryRow,
  countOwnersLocked,
  deleteGrantsInFarm,
  deleteGrantsOutsideFarm,
  deleteMember,
  farmIdsManagedBy,
  findFarm,
  findFarms,
  findFarmOfMachine,
  findFarmsOfMachines,
  farmColumnsOfMachine,
  findRole,
  grantsInFarm,
  insertFarm,
  insertMember,
  listFarms,
  listMachineIdsOfFarm,
  listSwitchableFarms,
  listMembers,
  placeMachine,
  renameFarm,
  secondFactorRequiredBy,
  updateRole,
  updateSecondFactorRequired,
} from './farms.repository';

export type { DealerGrantRow, DealerRow } from './dealers.repository';
export type { FarmRow, FarmSummaryRow } from './farms.repository';

type Levels = Map<number, Map<number, AccessLevel>>;

/** Groups rows of who may use what by one side, each with the other side's levels. */
function grouped(ids: number[], rows: { key: number; other: number; level: AccessLevel }[]): Levels {
  const groups: Levels = new Map(ids.map((id) => [id, new Map()]));
  for (const row of rows) groups.get(row.key)?.set(row.other, row.level);
  return groups;
}

/**
 * Who may use which machine, and how (docs/roles.md). A machine belongs to at most one farm; the
 * farm's owners and managers control all its machines; anyone else uses a machine through a
 * grant, at *watch* (sees everything, changes nothing) or *control* (also moves the machine and
 * changes its programs). Every method takes the database or the caller's transaction, so a
 * change and its log entry commit together. The server's administrators' control of every
 * machine is not a grant: callers check the admin flag first.
 */
export class AccessService {
  /**
   * Grants the machine at a level (control unless told), or changes the level of the user's
   * grant. A grantee of a farm's machine becomes a member of the farm, if they were not: the farm
   * they joined is returned, for the log.
   */
  async grant(
    db: Queryable,
    sprinklerId: number,
    userId: number,
    level: AccessLevel = 'control',
  ): Promise<{ joined: FarmRow | null }> {
    await grantAccess(db, sprinklerId, userId, level);
    const farm = await findFarmOfMachine(db, sprinklerId);
    return { joined: farm && (await insertMember(db, farm.id, userId, 'member')) ? farm : null };
  }

  /** False when the user had no grant to revoke. */
  revoke(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
    return revokeAccess(db, sprinklerId, userId);
  }

  /** The level at which the user may use the machine, by a grant or by running its farm; null for none. */
  levelOf(db: Queryable, sprinklerId: number, userId: number): Promise<AccessLevel | null> {
    return effectiveLevel(db, sprinklerId, userId);
  }

  /**
   * A subquery of the ids of the machines the user (or a placeholder's) may use, only those they
   * may control when `level` says so, for `inArray` in another module's query.
   */
  machineIdsOf(db: Queryable, userId: number | Placeholder, level?: 'control', farmId?: number) {
    return machineIdsUsableBy(db, userId, level, farmId);
  }

  /** A subquery of the ids of the farm's machines, for `inArray` in another module's query. */
  machineIdsInFarm(db: Queryable, farmId: number) {
    return machineIdsInFarm(db, farmId);
  }

  /**
   * The farm the user may switch to, as its lists filter by it (docs/roles.md): one they belong
   * to or their dealer is granted, any for the server's administrators; farm_not_found for any other.
   */
  async switchableFarm(db: Queryable, user: { id: number; admin: boolean }, farmId: number): Promise<void> {
    const [known] = await listSwitchableFarms(db, user.id, user.admin, farmId);
    if (!known) throw new AppError('farm_not_found');
  }

  /** The farms the user may switch their lists to, by name (see switchableFarm). */
  switchableFarms(db: Queryable, user: { id: number; admin: boolean }): Promise<{ id: number; name: string }[]> {
    return listSwitchableFarms(db, user.id, user.admin);
  }

  /** The id and name of the farm of the machine a column of another module's query names (null: none). */
  farmColumnsOfMachine(sprinklerId: SQLWrapper): { id: SQL<number | null>; name: SQL<string | null> } {
    return farmColumnsOfMachine(sprinklerId);
  }

  /** How many machines the user may use, counted on their own rows. */
  machineCountOf(db: Queryable, userId: number): Promise<number> {
    return countMachinesUsableBy(db, userId);
  }

  /** A subquery of the ids of the users granted the machine, for `inArray` in another module's query. */
  userIdsOf(db: Queryable, sprinklerId: number) {
    return userIdsGrantedTo(db, sprinklerId);
  }

  /** The machines each of the given users may use, in one query. */
  async machinesOfUsers(db: Queryable, userIds: number[]): Promise<Map<number, number[]>> {
    return new Map([...(await this.levelsOfUsers(db, userIds))].map(([id, machines]) => [id, [...machines.keys()]]));
  }

  /** For each of the given machines, the level of each user who may use it (by a grant or a farm), in one query. */
  async levelsOnMachines(db: Queryable, sprinklerIds: number[]): Promise<Levels> {
    const rows = await usableOf(db, { sprinklerIds });
    return grouped(
      sprinklerIds,
      rows.map((row) => ({ key: row.sprinklerId, other: row.userId, level: row.level })),
    );
  }

  /** For each of the given users, the level of each machine they may use (by a grant or a farm), in one query. */
  async levelsOfUsers(db: Queryable, userIds: number[]): Promise<Levels> {
    const rows = await usableOf(db, { userIds });
    return grouped(
      userIds,
      rows.map((row) => ({ key: row.userId, other: row.sprinklerId, level: row.level })),
    );
  }

  /** For each of the given machines, its grants alone (as the administrators' panel shows and changes them). */
  async grantsOnMachines(db: Queryable, sprinklerIds: number[]): Promise<Levels> {
    const rows = await grantsOf(db, { sprinklerIds });
    return grouped(
      sprinklerIds,
      rows.map((row) => ({ key: row.sprinklerId, other: row.userId, level: row.level })),
    );
  }

  /** For each of the given users, their grants alone. */
  async grantsOfUsers(db: Queryable, userIds: number[]): Promise<Levels> {
    const rows = await grantsOf(db, { userIds });
    return grouped(
      userIds,
      rows.map((row) => ({ key: row.userId, other: row.sprinklerId, level: row.level })),
    );
  }

  // Farms.

  /** The new farm; null when a farm has that name. */
  createFarm(db: Queryable, name: string): Promise<FarmRow | null> {
    return insertFarm(db, name);
  }

  /** The renamed farm; undefined when it does not exist; null when another farm has the name. */
  renameFarm(db: Queryable, farmId: number, name: string): Promise<FarmRow | undefined | null> {
    return renameFarm(db, farmId, name);
  }

  farm(db: Queryable, farmId: number): Promise<FarmRow | undefined> {
    return findFarm(db, farmId);
  }

  /** Sets whether the farm requires two-step sign-in of its members; undefined when there is no such farm. */
  requireSecondFactor(db: Queryable, farmId: number, required: boolean): Promise<FarmRow | undefined> {
    return updateSecondFactorRequired(db, farmId, required);
  }

  /**
   * Whether a farm the user belongs to requires two-step sign-in (docs/two-factor.md), as an
   * expression over a user id (a column of another module's query, or a value).
   */
  secondFactorRequiredBy(userId: SQLWrapper): SQL<boolean> {
    return secondFactorRequiredBy(userId);
  }

  /** Whether a farm the user belongs to requires two-step sign-in. */
  async requiresSecondFactor(db: Queryable, userId: number): Promise<boolean> {
    const [row] = await db.select({ required: secondFactorRequiredBy(sql`${userId}`) }).from(sql`(select 1) as one`);
    return row?.required === true;
  }

  /** The server's farm when it has exactly one; null otherwise. */
  async onlyFarm(db: Queryable): Promise<FarmRow | null> {
    const two = await findFarms(db, 2);
    return two.length === 1 ? two[0]! : null;
  }

  /** The farms the user belongs to with their role in each, or every farm when `all`. */
  farmsOf(db: Queryable, userId: number, all: boolean): Promise<FarmSummaryRow[]> {
    return listFarms(db, userId, all);
  }

  /** The user's role in the farm; null when they are no member. */
  roleIn(db: Queryable, farmId: number, userId: number): Promise<FarmRole | null> {
    return findRole(db, farmId, userId);
  }

  members(db: Queryable, farmId: number): Promise<{ userId: number; role: FarmRole }[]> {
    return listMembers(db, farmId);
  }

  /** Every grant of the farm's machines. */
  grantsInFarm(db: Queryable, farmId: number) {
    return grantsInFarm(db, farmId);
  }

  /** False when the user was a member already. */
  addMember(db: Queryable, farmId: number, userId: number, role: FarmRole): Promise<boolean> {
    return insertMember(db, farmId, userId, role);
  }

  setRole(db: Queryable, farmId: number, userId: number, role: FarmRole): Promise<void> {
    return updateRole(db, farmId, userId, role);
  }

  /** Removes the member and their grants of the farm's machines. */
  async removeMember(db: Queryable, farmId: number, userId: number): Promise<void> {
    await deleteGrantsInFarm(db, farmId, userId);
    await deleteMember(db, farmId, userId);
  }

  /** How many owners the farm has, locked against a second change counting at once. */
  ownerCount(db: Queryable, farmId: number): Promise<number> {
    return countOwnersLocked(db, farmId);
  }

  // Dealers.

  createDealer(db: Queryable, name: string): Promise<DealerRow | null> {
    return insertDealer(db, name);
  }

  dealers(db: Queryable): Promise<DealerRow[]> {
    return listDealers(db);
  }

  dealer(db: Queryable, dealerId: number): Promise<DealerRow | undefined> {
    return findDealer(db, dealerId);
  }

  addDealerMember(db: Queryable, dealerId: number, userId: number): Promise<boolean> {
    return insertDealerMember(db, dealerId, userId);
  }

  dealerMemberIds(db: Queryable, dealerId: number): Promise<number[]> {
    return listDealerMemberIds(db, dealerId);
  }

  /** False when the user was no member of the dealer. */
  removeDealerMember(db: Queryable, dealerId: number, userId: number): Promise<boolean> {
    return deleteDealerMember(db, dealerId, userId);
  }

  /** Grants a dealer the farm's machines (or changes its grant); machines named must be the farm's. */
  saveDealerGrant(db: Queryable, grant: Parameters<typeof saveDealerGrant>[1]): Promise<number> {
    return saveDealerGrant(db, grant);
  }

  /** False when the dealer had no grant of the farm. */
  revokeDealer(db: Queryable, farmId: number, dealerId: number): Promise<boolean> {
    return deleteDealerGrant(db, farmId, dealerId);
  }

  dealerGrantsOfFarm(db: Queryable, farmId: number): Promise<DealerGrantRow[]> {
    return listDealerGrantsOfFarm(db, farmId);
  }

  /**
   * The dealer through which the user acts on the machine (a grant of their dealer, not a farm
   * of theirs), as an expression of the log's insert; null when they act as themselves.
   */
  dealerActingOn(userId: number, sprinklerId: number): SQL<string | null> {
    return dealerActingOn(userId, sprinklerId);
  }

  /** The farms granted, in force, to the user's dealers. */
  farmsDealtTo(db: Queryable, userId: number) {
    return listFarmsDealtTo(db, userId);
  }

  /** Whether the user runs (owns or manages) the farm the machine belongs to. */
  async runsFarmOf(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
    const farm = await findFarmOfMachine(db, sprinklerId);
    const role = farm && (await findRole(db, farm.id, userId));
    return role === 'owner' || role === 'manager';
  }

  /** A subquery of the ids of the farms the user runs, for `inArray` in another module's query. */
  managedFarmIdsOf(db: Queryable, userId: number | Placeholder) {
    return farmIdsManagedBy(db, userId);
  }

  /** The farm the machine belongs to; null for one not placed in a farm yet. */
  farmOfMachine(db: Queryable, sprinklerId: number): Promise<FarmRow | null> {
    return findFarmOfMachine(db, sprinklerId);
  }

  /** The farm of each of the machines placed in one, by machine id. */
  farmsOfMachines(db: Queryable, sprinklerIds: number[]): Promise<Map<number, { id: number; name: string }>> {
    return findFarmsOfMachines(db, sprinklerIds);
  }

  machineIdsOfFarm(db: Queryable, farmId: number): Promise<number[]> {
    return listMachineIdsOfFarm(db, farmId);
  }

  /** Places the machine in the farm (or moves it there); grants of people outside that farm end. */
  async placeMachine(db: Queryable, sprinklerId: number, farmId: number): Promise<void> {
    await placeMachine(db, sprinklerId, farmId);
    await deleteGrantsOutsideFarm(db, sprinklerId, farmId);
  }
}
