import type { Dealer, DealerFleetFarm, DealerGrant, DealerGrantBody, DealerMember } from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { AccessService, DealerGrantRow } from '../access';
import type { AutopilotSettingsService } from '../autopilot';
import type { IncidentDesk } from '../incidents';
import type { LogsService } from '../logs';
import type { SprinklersService } from '../sprinklers';
import type { UsersService } from '../users';

export type DealersServiceDeps = {
  db: Database;
  access: AccessService;
  users: UsersService;
  sprinklers: SprinklersService;
  logs: LogsService;
  incidents: Pick<IncidentDesk, 'openCounts'>;
  autopilot: Pick<AutopilotSettingsService, 'plannedStarts'>;
  /** Refuses unless the caller runs the farm (farms.service.ts). */
  assertRuns: (db: Queryable, actor: SignedInUser, farmId: number) => Promise<void>;
};

/** A dealer's member added or removed, in the log: the person's address and the dealer's name. */
function memberEntry(
  eventType: 'dealer_member_added' | 'dealer_member_removed',
  actor: SignedInUser,
  person: { id: number; email: string },
  dealer: { name: string },
  client: ClientInfo,
) {
  return {
    eventType,
    actorUserId: actor.id,
    subjectUserId: person.id,
    event: person.email,
    details: dealer.name,
    ip: client.ip,
  };
}

function presentGrant(grant: DealerGrantRow, nowMs: number): DealerGrant {
  return {
    dealer: { id: grant.dealerId, name: grant.dealerName },
    level: grant.level,
    machines: grant.allMachines ? 'all' : grant.machineIds,
    expiresAt: grant.expiresAt?.getTime() ?? null,
    grantedAt: grant.grantedAt.getTime(),
    inForce: grant.expiresAt === null || grant.expiresAt.getTime() > nowMs,
  };
}

/**
 * Dealers (docs/roles.md): the server's administrators create them and add their members; a
 * farm's owners and managers grant a dealer watch or control over all the farm's machines or
 * some, until a time or revoked, each in the farm's log; a dealer's members see the farms granted
 * side by side. Who may then use which machine is the access module's to decide.
 */
export class DealersService {
  constructor(private readonly deps: DealersServiceDeps) {}

  async list(): Promise<Dealer[]> {
    return (await this.deps.access.dealers(this.deps.db)).map(({ id, name }) => ({ id, name }));
  }

  async create(name: string): Promise<Dealer> {
    const dealer = await this.deps.access.createDealer(this.deps.db, name);
    if (!dealer) throw new AppError('dealer_name_taken');
    return { id: dealer.id, name: dealer.name };
  }

  /** The dealer's members, in the order they were added. */
  async members(dealerId: number): Promise<DealerMember[]> {
    const { db, access, users } = this.deps;
    if (!(await access.dealer(db, dealerId))) throw new AppError('dealer_not_found');
    const ids = await access.dealerMemberIds(db, dealerId);
    const people = new Map((await users.findMany(db, ids)).map((person) => [person.id, person]));
    return ids.flatMap((id) => {
      const person = people.get(id);
      return person
        ? [{ id: person.id, first_name: person.firstName, last_name: person.lastName, email: person.email }]
        : [];
    });
  }

  /** Makes an existing account the dealer's member, in the log unless they were one already. */
  async addMember(actor: SignedInUser, dealerId: number, email: string, client: ClientInfo): Promise<void> {
    const { db, access, users, logs, sprinklers } = this.deps;
    await db.transaction(async (tx) => {
      const dealer = await access.dealer(tx, dealerId);
      if (!dealer) throw new AppError('dealer_not_found');
      const person = await users.findByEmail(email, tx);
      if (!person) throw new AppError('user_not_found');
      if (!(await access.addDealerMember(tx, dealerId, person.id))) return;
      await logs.record(tx, memberEntry('dealer_member_added', actor, person, dealer, client));
    });
    sprinklers.machinesChanged();
  }

  /**
   * Ends a person's membership of the dealer: their access through it ends at once, and so do
   * their open streams of the machines farms granted the dealer (as a farm's revoke does).
   */
  async removeMember(actor: SignedInUser, dealerId: number, userId: number, client: ClientInfo): Promise<void> {
    const { db, access, users, logs, sprinklers } = this.deps;
    await db.transaction(async (tx) => {
      const dealer = await access.dealer(tx, dealerId);
      if (!dealer) throw new AppError('dealer_not_found');
      const person = await users.find(tx, userId);
      if (!person || !(await access.removeDealerMember(tx, dealerId, userId))) throw new AppError('user_not_found');
      await logs.record(tx, memberEntry('dealer_member_removed', actor, person, dealer, client));
    });
    sprinklers.machinesChanged();
  }

  async farmGrants(actor: SignedInUser, farmId: number): Promise<DealerGrant[]> {
    const { db, access } = this.deps;
    await this.deps.assertRuns(db, actor, farmId);
    const nowMs = Date.now();
    return (await access.dealerGrantsOfFarm(db, farmId)).map((grant) => presentGrant(grant, nowMs));
  }

  async grant(
    actor: SignedInUser,
    farmId: number,
    dealerId: number,
    body: DealerGrantBody,
    client: ClientInfo,
  ): Promise<DealerGrant> {
    const { db, access, logs, sprinklers } = this.deps;
    const saved = await db.transaction(async (tx) => {
      await this.deps.assertRuns(tx, actor, farmId);
      const dealer = await access.dealer(tx, dealerId);
      if (!dealer) throw new AppError('dealer_not_found');
      if (body.machines !== 'all') {
        const farmMachines = new Set(await access.machineIdsOfFarm(tx, farmId));
        if (!body.machines.every((id) => farmMachines.has(id))) throw new AppError('sprinkler_not_found');
      }
      await access.saveDealerGrant(tx, {
        farmId,
        dealerId,
        level: body.level,
        machineIds: body.machines === 'all' ? 'all' : [...new Set(body.machines)],
        expiresAt: body.expiresAt === null ? null : new Date(body.expiresAt),
      });
      const farm = (await access.farm(tx, farmId))!;
      await logs.record(tx, {
        eventType: 'farm_dealer_granted',
        actorUserId: actor.id,
        farm: { id: farm.id, name: farm.name },
        event: dealer.name,
        details: body.level,
        ip: client.ip,
      });
      return (await access.dealerGrantsOfFarm(tx, farmId)).find((grant) => grant.dealerId === dealerId)!;
    });
    sprinklers.machinesChanged();
    return presentGrant(saved, Date.now());
  }

  /** Ends the dealer's access at once: its members' open streams of the farm's machines end too. */
  async revoke(actor: SignedInUser, farmId: number, dealerId: number, client: ClientInfo): Promise<void> {
    const { db, access, logs, sprinklers } = this.deps;
    await db.transaction(async (tx) => {
      await this.deps.assertRuns(tx, actor, farmId);
      const dealer = await access.dealer(tx, dealerId);
      if (!dealer || !(await access.revokeDealer(tx, farmId, dealerId))) throw new AppError('dealer_not_found');
      const farm = (await access.farm(tx, farmId))!;
      await logs.record(tx, {
        eventType: 'farm_dealer_revoked',
        actorUserId: actor.id,
        farm: { id: farm.id, name: farm.name },
        event: dealer.name,
        ip: client.ip,
      });
    });
    sprinklers.machinesChanged();
  }

  /**
   * The farms granted to the caller's dealers, side by side, with their machines' states counted,
   * their open incidents and the soonest start planned: a statement each for all the farms.
   */
  async fleet(actor: SignedInUser): Promise<DealerFleetFarm[]> {
    const { db, access, sprinklers, incidents, autopilot } = this.deps;
    const dealt = await access.farmsDealtTo(db, actor.id);
    if (dealt.length === 0) return [];
    const items = new Map((await sprinklers.list(actor)).map((item) => [item.id, item]));
    const granted = [...new Set(dealt.flatMap((grant) => grant.machineIds))].flatMap((id) => items.get(id) ?? []);
    const [openIncidents, plannedStarts] = await Promise.all([
      incidents.openCounts(granted.map((machine) => machine.internalId)),
      autopilot.plannedStarts(
        granted.map((machine) => machine.id),
        Date.now(),
      ),
    ]);
    return dealt.map((grant) => {
      const machines = grant.machineIds.flatMap((id) => items.get(id) ?? []);
      const next = machines
        .flatMap((machine) => {
          const at = plannedStarts.get(machine.id);
          return at === undefined ? [] : [{ machine: { id: machine.id, name: machine.name }, at }];
        })
        .reduce<DealerFleetFarm['nextIrrigation']>(
          (soonest, start) => (soonest && soonest.at <= start.at ? soonest : start),
          null,
        );
      return {
        farm: { id: grant.farmId, name: grant.farmName },
        dealerName: grant.dealerName,
        level: grant.level,
        expiresAt: grant.expiresAt?.getTime() ?? null,
        machines: {
          total: machines.length,
          online: machines.filter((machine) => machine.online).length,
          moving: machines.filter(
            (machine) => machine.online && (machine.status === 'front' || machine.status === 'back'),
          ).length,
          inAlarm: machines.filter((machine) => machine.status === 'alarm').length,
        },
        openIncidents: machines.reduce((sum, machine) => sum + (openIncidents.get(machine.internalId) ?? 0), 0),
        nextIrrigation: next,
      };
    });
  }
}
