import {
  type AccessLevel,
  type Farm,
  type FarmBody,
  type FarmDetail,
  type FarmMember,
  type FarmMemberBody,
  type FarmRole,
  MANAGING_ROLES,
  type MachineFarmBody,
  type SwitchableFarm,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { AccessService, FarmRow } from '../access';
import type { LogsService, NewLogEntry } from '../logs';
import { type SprinklersService, loggedMachine } from '../sprinklers';
import type { UserRow, UsersService } from '../users';

export type FarmsServiceDeps = {
  db: Database;
  access: AccessService;
  users: UsersService;
  sprinklers: SprinklersService;
  logs: LogsService;
};

/**
 * What the caller is to a farm: the server's administrator (`operator`, who may do everything an
 * owner may), or their role in it.
 */
type Standing = 'operator' | FarmRole;

/** Who may give or take which role: owners and the operator any; managers only member and manager. */
function mayHandle(standing: Standing, role: FarmRole): boolean {
  return standing === 'operator' || standing === 'owner' || (standing === 'manager' && role !== 'owner');
}

/**
 * Farms and the people in them (docs/roles.md): the server's administrators create farms, place
 * machines in them and add the first members; a farm's owners and managers run its members and
 * their roles. Each change is one transaction with its entry in the farm's log; a change of who
 * may see what tells the open lists and streams (SprinklersService.machinesChanged).
 */
export class FarmsService {
  constructor(private readonly deps: FarmsServiceDeps) {}

  /** The farms the caller belongs to; every farm for the server's administrators. */
  async list(actor: SignedInUser, db: Queryable = this.deps.db): Promise<Farm[]> {
    const rows = await this.deps.access.farmsOf(db, actor.id, actor.admin);
    return rows.map(({ id, name, role, requireSecondFactor, machineCount, memberCount }) => ({
      id,
      name,
      role,
      requireSecondFactor,
      machineCount,
      memberCount,
    }));
  }

  /** The farms the machines list and the activity log can be switched to (docs/roles.md). */
  switchable(actor: SignedInUser): Promise<SwitchableFarm[]> {
    return this.deps.access.switchableFarms(this.deps.db, actor);
  }

  async create(actor: SignedInUser, body: FarmBody, client: ClientInfo): Promise<Farm> {
    const { db, access, logs } = this.deps;
    const farm = await db.transaction(async (tx) => {
      const created = await access.createFarm(tx, body.name);
      if (!created) throw new AppError('farm_name_taken');
      await logs.record(tx, farmEntry('farm_created', actor, created, client, { event: actor.email }));
      return created;
    });
    return { id: farm.id, name: farm.name, role: null, requireSecondFactor: false, machineCount: 0, memberCount: 0 };
  }

  async rename(actor: SignedInUser, farmId: number, body: FarmBody, client: ClientInfo): Promise<Farm> {
    const { db, access, logs } = this.deps;
    await db.transaction(async (tx) => {
      const standing = await this.standingIn(tx, actor, farmId);
      if (standing !== 'operator' && standing !== 'owner') throw new AppError('forbidden');
      const renamed = await access.renameFarm(tx, farmId, body.name);
      if (!renamed) throw new AppError(renamed === null ? 'farm_name_taken' : 'farm_not_found');
      await logs.record(tx, farmEntry('farm_renamed', actor, renamed, client, { event: actor.email }));
    });
    return this.summary(actor, farmId);
  }

  /** Requires two-step sign-in of the farm's members, or no longer (its owners; docs/two-factor.md). */
  async requireSecondFactor(actor: SignedInUser, farmId: number, required: boolean, client: ClientInfo): Promise<Farm> {
    const { db, access, logs } = this.deps;
    await db.transaction(async (tx) => {
      const standing = await this.standingIn(tx, actor, farmId);
      if (standing !== 'operator' && standing !== 'owner') throw new AppError('forbidden');
      const farm = (await access.requireSecondFactor(tx, farmId, required))!;
      const eventType = required ? 'farm_second_factor_required' : 'farm_second_factor_optional';
      await logs.record(tx, farmEntry(eventType, actor, farm, client, { event: actor.email }));
    });
    return this.summary(actor, farmId);
  }

  /** The farm's members with their grants, and its machines: for those who run it. */
  async detail(actor: SignedInUser, farmId: number, db: Queryable = this.deps.db): Promise<FarmDetail> {
    const { access, users, sprinklers } = this.deps;
    const standing = await this.standingIn(db, actor, farmId);
    if (!isManaging(standing)) throw new AppError('forbidden');
    const [members, grants, machineIds] = await Promise.all([
      access.members(db, farmId),
      access.grantsInFarm(db, farmId),
      access.machineIdsOfFarm(db, farmId),
    ]);
    const [people, machines, farm] = await Promise.all([
      users.findMany(
        db,
        members.map((member) => member.userId),
      ),
      sprinklers.findMany(db, machineIds),
      this.summary(actor, farmId, db),
    ]);
    const personById = new Map(people.map((person) => [person.id, person]));
    return {
      farm,
      members: members.flatMap(({ userId, role }) => {
        const person = personById.get(userId);
        return person
          ? [
              presentMember(
                person,
                role,
                grants.filter((held) => held.userId === userId),
              ),
            ]
          : [];
      }),
      machines: machines.map(({ id, name, internalId }) => ({ id, name, internalId })),
    };
  }

  /** Makes an existing account a member (the server's administrators; a farm's managers invite instead). */
  async addMember(actor: SignedInUser, farmId: number, body: FarmMemberBody, client: ClientInfo): Promise<FarmMember> {
    const { db, access, users, logs, sprinklers } = this.deps;
    const added = await db.transaction(async (tx) => {
      const farm = await access.farm(tx, farmId);
      if (!farm) throw new AppError('farm_not_found');
      const person = await users.findByEmail(body.email, tx);
      if (!person) throw new AppError('user_not_found');
      if (!(await access.addMember(tx, farmId, person.id, body.role))) throw new AppError('farm_member_exists');
      await logs.record(
        tx,
        farmEntry('farm_member_added', actor, farm, client, {
          subjectUserId: person.id,
          event: person.email,
          details: body.role,
        }),
      );
      return presentMember(person, body.role, []);
    });
    sprinklers.machinesChanged();
    return added;
  }

  /** Gives a member another role; a farm keeps at least one owner. */
  async changeRole(
    actor: SignedInUser,
    farmId: number,
    userId: number,
    role: FarmRole,
    client: ClientInfo,
  ): Promise<FarmMember> {
    const { db, access, logs, sprinklers } = this.deps;
    const changed = await db.transaction(async (tx) => {
      const { farm, current, person } = await this.memberToChange(tx, actor, farmId, userId);
      const standing = await this.standingIn(tx, actor, farmId);
      if (!mayHandle(standing, current) || !mayHandle(standing, role)) throw new AppError('forbidden');
      if (current === 'owner' && role !== 'owner' && (await access.ownerCount(tx, farmId)) <= 1) {
        throw new AppError('last_owner');
      }
      if (current !== role) {
        await access.setRole(tx, farmId, userId, role);
        await logs.record(
          tx,
          farmEntry('farm_member_role_changed', actor, farm, client, {
            subjectUserId: userId,
            event: person.email,
            details: role,
          }),
        );
      }
      const grants = await access.grantsInFarm(tx, farmId);
      return presentMember(
        person,
        role,
        grants.filter((held) => held.userId === userId),
      );
    });
    sprinklers.machinesChanged();
    return changed;
  }

  /**
   * Removes a member with their grants of the farm's machines, ending their open streams of
   * them; a member may also leave. A farm keeps at least one owner.
   */
  async removeMember(actor: SignedInUser, farmId: number, userId: number, client: ClientInfo): Promise<void> {
    const { db, access, logs, sprinklers } = this.deps;
    await db.transaction(async (tx) => {
      const { farm, current, person } = await this.memberToChange(tx, actor, farmId, userId);
      const leaving = actor.id === userId;
      if (!leaving && !mayHandle(await this.standingIn(tx, actor, farmId), current)) throw new AppError('forbidden');
      if (current === 'owner' && (await access.ownerCount(tx, farmId)) <= 1) throw new AppError('last_owner');
      await access.removeMember(tx, farmId, userId);
      await logs.record(
        tx,
        farmEntry('farm_member_removed', actor, farm, client, { subjectUserId: userId, event: person.email }),
      );
    });
    sprinklers.machinesChanged();
  }

  /** Places a machine in a farm, or moves it to another; grants of people outside that farm end. */
  async moveMachine(
    actor: SignedInUser,
    sprinklerId: number,
    body: MachineFarmBody,
    client: ClientInfo,
  ): Promise<Farm> {
    const { db, access, logs, sprinklers } = this.deps;
    await db.transaction(async (tx) => {
      const sprinkler = await sprinklers.find(tx, sprinklerId);
      if (!sprinkler) throw new AppError('sprinkler_not_found');
      const farm = await access.farm(tx, body.farmId);
      if (!farm) throw new AppError('farm_not_found');
      await access.placeMachine(tx, sprinklerId, farm.id);
      await logs.record(tx, {
        ...farmEntry('sprinkler_farm_changed', actor, farm, client, { event: actor.email }),
        sprinkler: loggedMachine(sprinkler),
      });
    });
    sprinklers.machinesChanged();
    return this.summary(actor, body.farmId);
  }

  /** Refuses unless the caller runs the farm: its owners and managers, the server's administrators. */
  async assertRuns(db: Queryable, actor: SignedInUser, farmId: number): Promise<void> {
    if (!isManaging(await this.standingIn(db, actor, farmId))) throw new AppError('forbidden');
  }

  /** Refuses unless the caller may invite people to the farm in this role (those who may give it). */
  async assertMayInvite(db: Queryable, actor: SignedInUser, farmId: number, role: FarmRole): Promise<void> {
    const standing = await this.standingIn(db, actor, farmId);
    if (!isManaging(standing) || !mayHandle(standing, role)) throw new AppError('forbidden');
  }

  /**
   * What the caller is to the farm. A farm that does not exist and one the caller is no member
   * of answer alike (farm_not_found): to others it does not exist.
   */
  private async standingIn(db: Queryable, actor: SignedInUser, farmId: number): Promise<Standing> {
    const { access } = this.deps;
    if (actor.admin) {
      if (!(await access.farm(db, farmId))) throw new AppError('farm_not_found');
      return 'operator';
    }
    const role = await access.roleIn(db, farmId, actor.id);
    if (!role) throw new AppError('farm_not_found');
    return role;
  }

  /** The farm, and the member to change with their role now; a person who is no member is user_not_found. */
  private async memberToChange(db: Queryable, actor: SignedInUser, farmId: number, userId: number) {
    const { access, users } = this.deps;
    await this.standingIn(db, actor, farmId);
    const farm = (await access.farm(db, farmId))!;
    const current = await access.roleIn(db, farmId, userId);
    const person = current && (await users.find(db, userId));
    if (!current || !person) throw new AppError('user_not_found');
    return { farm, current, person };
  }

  private async summary(actor: SignedInUser, farmId: number, db: Queryable = this.deps.db): Promise<Farm> {
    const farm = (await this.list(actor, db)).find((listed) => listed.id === farmId);
    if (!farm) throw new AppError('farm_not_found');
    return farm;
  }
}

/** A member as the farm's page shows them, with their grants of the farm's machines. */
function presentMember(
  person: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email'>,
  role: FarmRole,
  grants: { sprinklerId: number; level: AccessLevel }[],
): FarmMember {
  return {
    id: person.id,
    first_name: person.firstName,
    last_name: person.lastName,
    email: person.email,
    role,
    grants: grants.map(({ sprinklerId, level }) => ({ sprinklerId, level })),
  };
}

function isManaging(standing: Standing): boolean {
  return standing === 'operator' || MANAGING_ROLES.includes(standing);
}

/** A farm's entry in the log: by the actor, about the farm as it is named now. */
function farmEntry(
  eventType: NewLogEntry['eventType'],
  actor: SignedInUser,
  farm: FarmRow,
  client: ClientInfo,
  entry: Pick<NewLogEntry, 'event'> & Partial<NewLogEntry>,
): NewLogEntry {
  return { eventType, actorUserId: actor.id, farm: { id: farm.id, name: farm.name }, ip: client.ip, ...entry };
}
