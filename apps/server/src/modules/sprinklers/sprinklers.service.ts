import type {
  CreateSprinklerBody,
  Motion,
  PermissionsBody,
  SprinklerAdminListQuery,
  SprinklerDetail,
  SprinklerListItem,
  SprinklerWithUsers,
  UpdateSprinklerBody,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { CommandOutcome, CommandRequest } from '../../gateway/mqtt-gateway';
import type { ClientInfo } from '../auth/auth.service';
import { type NewLogEntry, insertLogEntry } from '../logs/logs.repository';
import { listPrograms } from '../programs/programs.repository';
import { findMachineStates, updateMachineStatus } from '../telemetry/telemetry.repository';
import { findUserById } from '../users/users.repository';
import type { UserRow } from '../users/users.table';
import type { WeatherService } from '../weather/weather.service';
import { presentAssignedUser, presentSprinklerDetail, presentSprinklerListItem } from './sprinklers.presenter';
import {
  type SprinklerRow,
  findAccessibleSprinkler,
  findSprinkler,
  findSprinklerByInternalId,
  grantAccess,
  insertSprinkler,
  listAccessibleSprinklers,
  listSprinklersForAdmin,
  revokeAccess,
  updateSprinkler,
  usersGrantedTo,
} from './sprinklers.repository';

/** What the services need of the gateway: a command and its outcome. */
export type MachineCommands = {
  command<T extends CommandRequest['type']>(
    machineId: string,
    request: CommandRequest & { type: T },
  ): Promise<CommandOutcome<T>>;
};

/** The error to answer when a machine command did not succeed. */
export function commandFailure(outcome: CommandOutcome<CommandRequest['type']>): AppError {
  if (outcome.kind === 'timeout') return new AppError('sprinkler_unresponsive');
  if (outcome.kind === 'refused') return new AppError('command_refused');
  return new AppError('sprinkler_processing_error');
}

/** Words for the log of why a command failed. */
export function describeFailure(outcome: CommandOutcome<CommandRequest['type']>): string {
  if (outcome.kind === 'timeout') return 'no answer in time';
  if (outcome.kind === 'refused') return `refused: ${outcome.code} (${outcome.message})`;
  return 'unreadable answer';
}

export function machineOf(sprinkler: SprinklerRow): NonNullable<NewLogEntry['sprinkler']> {
  return { id: sprinkler.id, name: sprinkler.name, internalId: sprinkler.internalId };
}

export type SprinklersServiceDeps = { db: Database; machines: MachineCommands; weather: WeatherService };

export class SprinklersService {
  constructor(private readonly deps: SprinklersServiceDeps) {}

  /** A machine the user may use, or sprinkler_not_found: to others it does not exist. */
  async accessible(user: UserRow, id: number): Promise<SprinklerRow> {
    const sprinkler = await findAccessibleSprinkler(this.deps.db, user, id);
    if (!sprinkler) throw new AppError('sprinkler_not_found');
    return sprinkler;
  }

  async list(user: UserRow): Promise<SprinklerListItem[]> {
    const rows = await listAccessibleSprinklers(this.deps.db, user);
    const states = await findMachineStates(
      this.deps.db,
      rows.map((row) => row.internalId),
    );
    return rows.map((row) => presentSprinklerListItem(row, states.get(row.internalId)));
  }

  async detail(user: UserRow, id: number): Promise<SprinklerDetail> {
    return this.present(this.deps.db, await this.accessible(user, id));
  }

  /** The detail of a machine already known to be accessible. */
  async present(db: Queryable, sprinkler: SprinklerRow): Promise<SprinklerDetail> {
    const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
    const [states, programs, users, weatherStations, humiditySensors] = await Promise.all([
      findMachineStates(db, [sprinkler.internalId]),
      listPrograms(db, sprinkler.id),
      usersGrantedTo(db, [sprinkler.id]),
      this.deps.weather.stationsNear(db, centre),
      this.deps.weather.sensorsNear(db, centre, sprinkler.armLength),
    ]);
    return presentSprinklerDetail({
      sprinkler,
      state: states.get(sprinkler.internalId),
      programs,
      users: users.get(sprinkler.id) ?? [],
      weatherStations,
      humiditySensors,
    });
  }

  /**
   * Adds a machine by its broker ID: the machine must answer an identify command, and tells
   * where it stands and how long its arm is.
   */
  async create(actor: UserRow, body: CreateSprinklerBody, client: ClientInfo): Promise<SprinklerListItem> {
    const { db, machines } = this.deps;
    if (await findSprinklerByInternalId(db, body.internalId)) throw new AppError('sprinkler_exists');
    const outcome = await machines.command(body.internalId, { type: 'identify' });
    const attempt = { actorUserId: actor.id, event: actor.email, ip: client.ip };
    if (outcome.kind !== 'ok') {
      const unanswered = outcome.kind === 'timeout';
      await insertLogEntry(db, {
        ...attempt,
        eventType: unanswered ? 'sprinkler_adding_unresponsive' : 'sprinkler_adding_processing_error',
        sprinkler: { id: null, name: body.name ?? null, internalId: body.internalId },
        details: describeFailure(outcome),
      });
      throw new AppError(unanswered ? 'sprinkler_not_on_broker' : 'sprinkler_processing_error');
    }
    const identity = outcome.result;
    const sprinkler = await db.transaction(async (tx) => {
      const created = await insertSprinkler(tx, {
        internalId: body.internalId,
        name: body.name ?? identity.name ?? body.internalId,
        lat: identity.lat.toFixed(6),
        lng: identity.lng.toFixed(6),
        armLength: identity.armLength,
        model: identity.model ?? null,
        firmware: identity.firmware ?? null,
      });
      await insertLogEntry(tx, { ...attempt, eventType: 'sprinkler_added', sprinkler: machineOf(created) });
      return created;
    });
    const states = await findMachineStates(db, [sprinkler.internalId]);
    return presentSprinklerListItem(sprinkler, states.get(sprinkler.internalId));
  }

  /** Renames a machine or changes its area map (administrators). */
  async update(actor: UserRow, id: number, body: UpdateSprinklerBody, client: ClientInfo): Promise<SprinklerListItem> {
    return this.deps.db.transaction(async (tx) => {
      const before = await findSprinkler(tx, id);
      if (!before) throw new AppError('sprinkler_not_found');
      const updated = (await updateSprinkler(tx, id, { name: body.name, areaMap: body.areaMap }))!;
      const changes = [
        body.name !== undefined && body.name !== before.name ? `name: ${before.name} → ${body.name}` : null,
        body.areaMap !== undefined ? 'area map' : null,
      ].filter((change) => change !== null);
      await insertLogEntry(tx, {
        eventType: 'sprinkler_updated',
        actorUserId: actor.id,
        sprinkler: machineOf(updated),
        event: actor.email,
        details: changes.join(', '),
        ip: client.ip,
      });
      const states = await findMachineStates(tx, [updated.internalId]);
      return presentSprinklerListItem(updated, states.get(updated.internalId));
    });
  }

  /** Grants or revokes one user's access; revoking access the user did not have is access_not_granted. */
  async changePermissions(
    actor: UserRow,
    id: number,
    body: PermissionsBody,
    client: ClientInfo,
  ): Promise<SprinklerWithUsers> {
    return this.deps.db.transaction(async (tx) => {
      const sprinkler = await findSprinkler(tx, id);
      const user = await findUserById(tx, body.user);
      if (!sprinkler || !user) throw new AppError('not_found');
      if (body.action === 'grant') await grantAccess(tx, id, user.id);
      else if (!(await revokeAccess(tx, id, user.id))) throw new AppError('access_not_granted');
      await insertLogEntry(tx, {
        eventType: body.action === 'grant' ? 'sprinkler_access_granted' : 'sprinkler_access_revoked',
        actorUserId: actor.id,
        subjectUserId: user.id,
        sprinkler: machineOf(sprinkler),
        event: user.email,
        details: actor.email,
        ip: client.ip,
      });
      return this.withUsers(tx, sprinkler);
    });
  }

  async listForAdmin(query: SprinklerAdminListQuery): Promise<{ count: number; data: SprinklerWithUsers[] }> {
    const { count, rows } = await listSprinklersForAdmin(this.deps.db, query);
    const [users, states] = await Promise.all([
      usersGrantedTo(
        this.deps.db,
        rows.map((row) => row.id),
      ),
      findMachineStates(
        this.deps.db,
        rows.map((row) => row.internalId),
      ),
    ]);
    return {
      count,
      data: rows.map((row) => ({
        sprinkler: presentSprinklerListItem(row, states.get(row.internalId)),
        users: (users.get(row.id) ?? []).map(presentAssignedUser),
      })),
    };
  }

  /** Sends a motion command and answers once the machine confirms it; a failure is logged and reported. */
  async move(actor: UserRow, id: number, motion: Motion, client: ClientInfo): Promise<SprinklerDetail> {
    const { db, machines } = this.deps;
    const sprinkler = await this.accessible(actor, id);
    const outcome = await machines.command(sprinkler.internalId, { type: 'motion', motion });
    const entry = { actorUserId: actor.id, sprinkler: machineOf(sprinkler), event: motion, ip: client.ip };
    if (outcome.kind !== 'ok') {
      await insertLogEntry(db, { ...entry, eventType: 'sprinkler_motion_failure', details: describeFailure(outcome) });
      throw commandFailure(outcome);
    }
    await updateMachineStatus(db, sprinkler.internalId, outcome.result.status);
    await insertLogEntry(db, { ...entry, eventType: 'sprinkler_motion_success' });
    return this.present(db, sprinkler);
  }

  private async withUsers(db: Queryable, sprinkler: SprinklerRow): Promise<SprinklerWithUsers> {
    const [users, states] = await Promise.all([
      usersGrantedTo(db, [sprinkler.id]),
      findMachineStates(db, [sprinkler.internalId]),
    ]);
    return {
      sprinkler: presentSprinklerListItem(sprinkler, states.get(sprinkler.internalId)),
      users: (users.get(sprinkler.id) ?? []).map(presentAssignedUser),
    };
  }
}
