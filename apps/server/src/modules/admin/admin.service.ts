import type {
  PermissionsBody,
  SprinklerAdminListQuery,
  SprinklerAdminListResponse,
  SprinklerWithUsers,
  UserListQuery,
  UserListResponse,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { AccessService } from '../access';
import type { LogsService } from '../logs';
import { type SprinklersService, loggedMachine } from '../sprinklers';
import { type UsersService, presentUser } from '../users';

export type AdminServiceDeps = {
  db: Database;
  access: AccessService;
  users: UsersService;
  sprinklers: SprinklersService;
  logs: LogsService;
};

/** The administrators' panel across users and machines: both lists with the access between them, and granting it. */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  /**
   * A page of users, each with the machines granted to them and each grant's level; `exclude`
   * leaves out those who have that machine.
   */
  async listUsers(query: UserListQuery): Promise<UserListResponse> {
    const { db, access, users, sprinklers } = this.deps;
    const excluding = query.exclude === undefined ? undefined : access.userIdsOf(db, query.exclude);
    const { count, rows } = await users.list(query, excluding);
    const grants = await access.grantsOfUsers(
      db,
      rows.map((row) => row.id),
    );
    const machines = await sprinklers.findMany(db, [
      ...new Set([...grants.values()].flatMap((levels) => [...levels.keys()])),
    ]);
    const items = await sprinklers.listItems(db, machines);
    return {
      count,
      data: rows.map((row) => {
        const levels = grants.get(row.id);
        return {
          user: presentUser(row),
          sprinklers: items.flatMap((item) => {
            const level = levels?.get(item.id);
            return level ? [{ ...item, level }] : [];
          }),
        };
      }),
    };
  }

  /** A page of machines, each with its users and its farm; `exclude` leaves out the machines that user has. */
  async listSprinklers(query: SprinklerAdminListQuery): Promise<SprinklerAdminListResponse> {
    const { db, access, sprinklers } = this.deps;
    const excluding = query.exclude === undefined ? undefined : access.machineIdsOf(db, query.exclude);
    const { count, rows } = await sprinklers.listForAdmin(query, excluding);
    return { count, data: await sprinklers.withUsers(db, rows) };
  }

  /**
   * Grants one user access at a level (control when the body names none), changes the level of
   * the user's grant, or revokes it; revoking access the user did not have is access_not_granted.
   * The log entry of a grant names its level (in `details`, which logEntryContext reads). The
   * people who run a machine's farm grant it too, to the farm's members only (docs/roles.md).
   */
  async changePermissions(
    actor: SignedInUser,
    sprinklerId: number,
    body: PermissionsBody,
    client: ClientInfo,
  ): Promise<SprinklerWithUsers> {
    const { db, access, users, sprinklers, logs } = this.deps;
    if (!actor.admin) await sprinklers.manageable(actor, sprinklerId);
    const changed = await db.transaction(async (tx) => {
      const sprinkler = await sprinklers.find(tx, sprinklerId);
      const user = await users.find(tx, body.user);
      const farm = await access.farmOfMachine(tx, sprinklerId);
      const outsideFarm = !actor.admin && (!farm || !user || !(await access.roleIn(tx, farm.id, user.id)));
      if (!sprinkler || !user || outsideFarm) throw new AppError('not_found');
      if (body.action === 'grant') {
        const { joined } = await access.grant(tx, sprinkler.id, user.id, body.level);
        if (joined) {
          await logs.record(tx, {
            eventType: 'farm_member_added',
            actorUserId: actor.id,
            subjectUserId: user.id,
            farm: joined,
            event: user.email,
            details: 'member',
            ip: client.ip,
          });
        }
      } else if (!(await access.revoke(tx, sprinkler.id, user.id))) throw new AppError('access_not_granted');
      await logs.record(tx, {
        eventType: body.action === 'grant' ? 'sprinkler_access_granted' : 'sprinkler_access_revoked',
        actorUserId: actor.id,
        subjectUserId: user.id,
        sprinkler: loggedMachine(sprinkler),
        event: user.email,
        details: body.action === 'grant' ? body.level : actor.email,
        ip: client.ip,
        farm,
      });
      const [changed] = await sprinklers.withUsers(tx, [sprinkler]);
      return changed!;
    });
    sprinklers.machinesChanged();
    return changed;
  }
}
