import type {
  AccessLevel,
  AssignedUser,
  CreateSprinklerBody,
  GeoJson,
  Language,
  Motion,
  Program,
  SprinklerAdminListQuery,
  SprinklerDetail,
  SprinklerListItem,
  SprinklerPage,
  SprinklerPageQuery,
  SprinklerWithUsers,
  UpdateSprinklerBody,
} from '@pivot/contracts';
import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import { LruCache } from '../../lru-cache';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { AccessService } from '../access';
import type { MachineCommands } from '../commands';
import type { LogsService, NewLogEntry } from '../logs';
import type { TelemetryService } from '../telemetry';
import { type OpenStreams, type UsersService, presentAssignedUser } from '../users';
import { type WeatherService, presentSensorsNear } from '../weather';
import type { CachedDetail } from './detail-cache';
import type { MachineArms } from './machine-arms';
import type { MachineListStreams } from './machine-list-streams';
import { statesWordedAs } from './machine-state-search';
import { type SprinklerDetailParts, presentSprinklerDetail, presentSprinklerListItem } from './sprinklers.presenter';
import {
  type SprinklerRow,
  countSprinklers,
  findSprinkler,
  findSprinklerAmong,
  findSprinklerByInternalId,
  insertSprinkler,
  listMachineIds,
  listSprinklerPage,
  listSprinklers,
  listSprinklersForAdmin,
  listWatchedMachines,
  prepareLiveDetailQuery,
  prepareMachineListQuery,
  updateSprinkler,
} from './sprinklers.repository';

/** How a machine is named in the activity log, as it was at the time. */
export function loggedMachine(sprinkler: SprinklerRow): NonNullable<NewLogEntry['sprinkler']> {
  return { id: sprinkler.id, name: sprinkler.name, internalId: sprinkler.internalId };
}

/**
 * The programs stored for a machine, which its detail shows. The programs module provides
 * them when it loads: it builds on this one, so this one cannot ask it directly.
 */
export type StoredPrograms = { listFor(db: Queryable, sprinklerId: number): Promise<Program[]> };

export type SprinklersServiceDeps = {
  db: Database;
  access: AccessService;
  users: UsersService;
  telemetry: TelemetryService;
  weather: WeatherService;
  commands: MachineCommands;
  logs: LogsService;
  arms: MachineArms;
  listStreams: MachineListStreams;
  /** The live streams of this instance, checked again after a change of who may see what. */
  openStreams: Pick<OpenStreams, 'recheckSoon'>;
};

/** The most machines whose detail is kept (CachedDetail); at ~10 kB each, a few MB. */
const CACHED_DETAILS = 500;

function centreOf(sprinkler: SprinklerRow) {
  return { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
}

export class SprinklersService {
  private storedPrograms: StoredPrograms | undefined;
  private readonly details = new LruCache<number, CachedDetail>(CACHED_DETAILS);
  private readonly liveDetail: {
    ofAnyMachine: ReturnType<typeof prepareLiveDetailQuery>;
    ofGrantedMachine: ReturnType<typeof prepareLiveDetailQuery>;
  };
  /** The list of every machine being read for an administrator, if one is (listJson). */
  private everyMachineJson: Promise<string> | undefined;
  private readonly machineList: {
    all: ReturnType<typeof prepareMachineListQuery>;
    granted: ReturnType<typeof prepareMachineListQuery>;
  };

  constructor(private readonly deps: SprinklersServiceDeps) {
    const { db, access, weather } = deps;
    const live = weather.liveColumns();
    const grantedToUser = access.machineIdsOf(db, sql.placeholder('userId'));
    this.liveDetail = {
      ofAnyMachine: prepareLiveDetailQuery(db, 'live_detail', live),
      ofGrantedMachine: prepareLiveDetailQuery(db, 'live_detail_granted', live, grantedToUser),
    };
    this.machineList = {
      all: prepareMachineListQuery(db, 'machine_list'),
      granted: prepareMachineListQuery(db, 'machine_list_granted', grantedToUser),
    };
  }

  /** Where the detail takes a machine's programs from (see StoredPrograms). */
  showProgramsFrom(source: StoredPrograms): void {
    this.storedPrograms = source;
  }

  /** A machine the user may use, or sprinkler_not_found: to others it does not exist. */
  async accessible(user: SignedInUser, id: number): Promise<SprinklerRow> {
    const { db, access } = this.deps;
    const sprinkler = user.admin
      ? await findSprinkler(db, id)
      : await findSprinklerAmong(db, id, access.machineIdsOf(db, user.id));
    if (!sprinkler) throw new AppError('sprinkler_not_found');
    return sprinkler;
  }

  /**
   * A machine the user may control: moving it, changing its programs. A machine the user may
   * only watch is watch_only (403); one not granted at all is sprinkler_not_found, as everywhere.
   */
  async controllable(user: SignedInUser, id: number): Promise<SprinklerRow> {
    const { db, access } = this.deps;
    if (user.admin) return this.accessible(user, id);
    const sprinkler = await findSprinklerAmong(db, id, access.machineIdsOf(db, user.id, 'control'));
    if (sprinkler) return sprinkler;
    await this.accessible(user, id);
    throw new AppError('watch_only');
  }

  /**
   * A machine the user may manage (rename, set up, grant to the farm's members): administrators
   * and the people who run its farm. Anyone else who may see it is forbidden; to the others it
   * does not exist.
   */
  async manageable(user: SignedInUser, id: number): Promise<SprinklerRow> {
    const sprinkler = await this.accessible(user, id);
    if (!user.admin && !(await this.deps.access.runsFarmOf(this.deps.db, id, user.id))) {
      throw new AppError('forbidden');
    }
    return sprinkler;
  }

  /**
   * The user's level on a machine they may see: control for administrators and the people who
   * run its farm, else their grant's (docs/roles.md).
   */
  async levelOf(user: SignedInUser, id: number, db: Queryable = this.deps.db): Promise<AccessLevel> {
    if (user.admin) return 'control';
    const level = await this.deps.access.levelOf(db, id, user.id);
    if (!level) throw new AppError('sprinkler_not_found');
    return level;
  }

  find(db: Queryable, id: number): Promise<SprinklerRow | undefined> {
    return findSprinkler(db, id);
  }

  /** The machine of this broker ID, if one was added. */
  findByMachineId(db: Queryable, internalId: string): Promise<SprinklerRow | undefined> {
    return findSprinklerByInternalId(db, internalId);
  }

  /** Draws a machine's field without an entry in the log: for the server's own set-up of the demo. */
  async setField(db: Queryable, id: number, areaMap: GeoJson): Promise<SprinklerRow> {
    const updated = await updateSprinkler(db, id, { areaMap });
    if (!updated) throw new AppError('sprinkler_not_found');
    return updated;
  }

  /** Every added machine as the incident watch needs it. */
  watched(db: Queryable) {
    return listWatchedMachines(db);
  }

  /** The broker IDs of every added machine. */
  machineIds(): Promise<string[]> {
    return listMachineIds(this.deps.db);
  }

  /**
   * The machines the user may see (all of them for an administrator) as the list's answer, JSON
   * written by the database (prepareMachineListQuery).
   */
  listJson(user: SignedInUser): Promise<string> {
    if (!user.admin) return this.machineList.granted({ userId: user.id, now: Date.now() });
    // Administrators asking while the list of every machine is being read share that read: at a
    // dealer's 10,000 machines each read costs the database a few hundred ms of CPU. A change
    // through this instance (machinesChanged) sends the next ones to a read of their own.
    if (!this.everyMachineJson) {
      const reading = this.machineList.all({ userId: user.id, now: Date.now() });
      const forget = () => {
        if (this.everyMachineJson === reading) this.everyMachineJson = undefined;
      };
      reading.then(forget, forget);
      this.everyMachineJson = reading;
    }
    return this.everyMachineJson;
  }

  /**
   * One page of the machines the user may see (all of them for an administrator), sorted,
   * searched and filtered by the database; the search also finds the states whose words, in
   * `language`, contain it. Without a search or a filter the count is the user's grants', or the
   * fleet's for an administrator, read without the rows of the machines.
   */
  async page(user: SignedInUser, query: SprinklerPageQuery, language: Language): Promise<SprinklerPage> {
    const { db, access } = this.deps;
    const nowMs = Date.now();
    const { search, farm, ...rest } = query;
    if (farm !== undefined) await access.switchableFarm(db, user, farm);
    // One farm's machines are counted with the page; all of them from the user's own rows.
    const among =
      farm === undefined
        ? user.admin
          ? { count: () => countSprinklers(db) }
          : { among: access.machineIdsOf(db, user.id), count: () => access.machineCountOf(db, user.id) }
        : { among: user.admin ? access.machineIdsInFarm(db, farm) : access.machineIdsOf(db, user.id, undefined, farm) };
    const { count, rows } = await listSprinklerPage(
      db,
      { ...rest, ...(search ? { search: { text: search, states: statesWordedAs(search, language) } } : {}) },
      { nowMs, farmOf: (id) => access.farmColumnsOfMachine(id), ...among },
    );
    return {
      count,
      data: rows.map(({ sprinkler, state, farmId }) => ({
        ...presentSprinklerListItem(sprinkler, state, nowMs),
        farmId,
      })),
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** The machines the user may see, in their list form. */
  async list(user: SignedInUser): Promise<SprinklerListItem[]> {
    return JSON.parse(await this.listJson(user)) as SprinklerListItem[];
  }

  /**
   * Tells the open machine lists that who may see which machine, or what a machine is called or
   * where it stands, changed: their streams say so, and the lists are read again.
   */
  machinesChanged(): void {
    this.everyMachineJson = undefined;
    this.deps.listStreams.machinesChanged();
    this.deps.openStreams.recheckSoon();
  }

  /** The list form of each machine, with its latest state. */
  async listItems(db: Queryable, rows: SprinklerRow[]): Promise<SprinklerListItem[]> {
    const states = await this.deps.telemetry.statesOf(
      db,
      rows.map((row) => row.internalId),
    );
    return rows.map((row) => {
      const state = states.get(row.internalId);
      return presentSprinklerListItem(row, state && { ...state, programLoaded: state.programData !== null });
    });
  }

  /** The given machines, by name and id. */
  findMany(db: Queryable, ids: number[]): Promise<SprinklerRow[]> {
    return listSprinklers(db, ids);
  }

  /** A page of machines for the administrators' list, optionally without those in `excluding` (a subquery of ids). */
  listForAdmin(
    query: SprinklerAdminListQuery,
    excluding?: SQLWrapper,
  ): Promise<{ count: number; rows: SprinklerRow[] }> {
    return listSprinklersForAdmin(this.deps.db, query, excluding);
  }

  /**
   * A machine's detail for a user who may use it. What changes rarely comes from the cache while
   * the machine's revision, read with the live state in one query, says it holds; the weather
   * while no station nearby has reported since (docs/scaling.md, "The machine detail: cached
   * between visits").
   */
  async detail(user: SignedInUser, id: number): Promise<SprinklerDetail> {
    const { db, weather } = this.deps;
    const cached = this.details.get(id);
    if (cached) {
      const { sprinkler } = cached;
      const centre = centreOf(sprinkler);
      const live = await (user.admin ? this.liveDetail.ofAnyMachine : this.liveDetail.ofGrantedMachine)({
        id,
        userId: user.id,
        ...weather.liveValues(centre, sprinkler.armLength),
      });
      if (!live) throw new AppError('sprinkler_not_found');
      if (live.revision === sprinkler.revision) {
        const current =
          live.stationsReadAt === cached.weather.latestReadingAt && Date.now() < cached.weather.validUntil
            ? cached
            : { ...cached, weather: await weather.stationsNear(db, centre) };
        if (current !== cached) this.details.set(id, current);
        return presentSprinklerDetail(
          {
            ...current,
            state: live.state ?? undefined,
            humiditySensors: presentSensorsNear(centre, sprinkler.armLength, live.soilSensors),
          },
          await this.levelOf(user, id),
        );
      }
    }
    // The revision is read with the row, before the parts: a change after it raises it, so an
    // entry never holds parts newer than its revision says.
    const sprinkler = await this.accessible(user, id);
    const parts = await this.parts(db, sprinkler);
    this.details.set(id, parts);
    return presentSprinklerDetail(parts, await this.levelOf(user, id));
  }

  /** The detail of a machine already known to be accessible to `viewer`, as the viewer sees it. */
  async present(db: Queryable, sprinkler: SprinklerRow, viewer: SignedInUser): Promise<SprinklerDetail> {
    const parts = await this.parts(db, sprinkler);
    return presentSprinklerDetail(parts, await this.levelOf(viewer, sprinkler.id, db));
  }

  /** Everything a machine's detail shows, read now. */
  private async parts(db: Queryable, sprinkler: SprinklerRow): Promise<SprinklerDetailParts & CachedDetail> {
    if (!this.storedPrograms) throw new Error('the programs module has not loaded');
    const { telemetry, weather } = this.deps;
    const centre = centreOf(sprinkler);
    const [states, programs, users, weatherNear, humiditySensors] = await Promise.all([
      telemetry.statesOf(db, [sprinkler.internalId]),
      this.storedPrograms.listFor(db, sprinkler.id),
      this.assignedUsers(db, [sprinkler.id]),
      weather.stationsNear(db, centre),
      weather.sensorsNear(db, centre, sprinkler.armLength),
    ]);
    return {
      sprinkler,
      state: states.get(sprinkler.internalId),
      programs,
      users: users.get(sprinkler.id) ?? [],
      weather: weatherNear,
      humiditySensors,
    };
  }

  /** Machines with the users who may use each and their farm, as the administrators' screens show them. */
  async withUsers(db: Queryable, rows: SprinklerRow[]): Promise<SprinklerWithUsers[]> {
    const ids = rows.map((row) => row.id);
    const [items, users, farms] = await Promise.all([
      this.listItems(db, rows),
      this.assignedUsers(db, ids),
      this.deps.access.farmsOfMachines(db, ids),
    ]);
    return items.map((item) => ({
      sprinkler: item,
      users: users.get(item.id) ?? [],
      farm: farms.get(item.id) ?? null,
    }));
  }

  /** The users granted each of the given machines, by last name, first name and id, with their grants' levels. */
  async assignedUsers(db: Queryable, sprinklerIds: number[]): Promise<Map<number, AssignedUser[]>> {
    const { access, users } = this.deps;
    const grants = await access.grantsOnMachines(db, sprinklerIds);
    const rows = await users.findMany(db, [...new Set([...grants.values()].flatMap((levels) => [...levels.keys()]))]);
    return new Map(
      [...grants].map(([sprinklerId, levels]) => [
        sprinklerId,
        rows.flatMap((row) => {
          const level = levels.get(row.id);
          return level ? [presentAssignedUser(row, level)] : [];
        }),
      ]),
    );
  }

  /**
   * Adds a machine by its broker ID: the machine must answer an identify command, and tells
   * where it stands and how long its arm is.
   */
  async create(actor: SignedInUser, body: CreateSprinklerBody, client: ClientInfo): Promise<SprinklerListItem> {
    const { db, commands, logs, access } = this.deps;
    if (await findSprinklerByInternalId(db, body.internalId)) throw new AppError('sprinkler_exists');
    const farm = await this.farmForNewMachine(body.farmId);
    const attempt = { actorUserId: actor.id, event: actor.email, ip: client.ip };
    const identity = await commands.run(
      { type: 'identify' },
      {
        ...attempt,
        machine: { id: null, name: body.name ?? null, internalId: body.internalId },
        failure: (failure) =>
          failure.kind === 'refused' || failure.kind === 'malformed'
            ? 'sprinkler_adding_processing_error'
            : 'sprinkler_adding_unresponsive',
      },
      {
        timeout: 'sprinkler_not_on_broker',
        refused: 'sprinkler_processing_error',
        malformed: 'sprinkler_processing_error',
        broker_down: 'broker_unreachable',
        offline: 'sprinkler_not_on_broker',
      },
    );
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
      if (farm) await access.placeMachine(tx, created.id, farm.id);
      await logs.record(tx, { ...attempt, eventType: 'sprinkler_added', sprinkler: loggedMachine(created), farm });
      return created;
    });
    this.deps.arms.learn(sprinkler.internalId, {
      centre: { lat: identity.lat, lng: identity.lng },
      armLength: identity.armLength,
    });
    this.machinesChanged();
    const [item] = await this.listItems(db, [sprinkler]);
    return item!;
  }

  /**
   * The farm a machine being added goes to: the one named, else the server's only farm; none
   * when there are several (the administrator places it later, docs/roles.md).
   */
  private async farmForNewMachine(farmId: number | undefined) {
    const { db, access } = this.deps;
    if (farmId === undefined) return access.onlyFarm(db);
    const farm = await access.farm(db, farmId);
    if (!farm) throw new AppError('farm_not_found');
    return farm;
  }

  /** Renames a machine or changes its area map (administrators, the people who run its farm). */
  async update(
    actor: SignedInUser,
    id: number,
    body: UpdateSprinklerBody,
    client: ClientInfo,
  ): Promise<SprinklerListItem> {
    await this.manageable(actor, id);
    const item = await this.deps.db.transaction(async (tx) => {
      const before = await findSprinkler(tx, id);
      if (!before) throw new AppError('sprinkler_not_found');
      const updated = (await updateSprinkler(tx, id, {
        name: body.name,
        areaMap: body.areaMap,
        lowPressureBar: body.lowPressureBar,
      }))!;
      const changes = [
        body.name !== undefined && body.name !== before.name ? `name: ${before.name} → ${body.name}` : null,
        body.areaMap !== undefined ? 'area map' : null,
        body.lowPressureBar !== undefined && body.lowPressureBar !== before.lowPressureBar
          ? `low-pressure alert: ${before.lowPressureBar} → ${body.lowPressureBar} bar`
          : null,
      ].filter((change) => change !== null);
      await this.deps.logs.record(tx, {
        eventType: 'sprinkler_updated',
        actorUserId: actor.id,
        sprinkler: loggedMachine(updated),
        event: actor.email,
        details: changes.join(', '),
        ip: client.ip,
      });
      const [updatedItem] = await this.listItems(tx, [updated]);
      return updatedItem!;
    });
    this.machinesChanged();
    return item;
  }

  /** Sends a motion command and answers once the machine confirms it; a failure is logged and reported. */
  async move(actor: SignedInUser, id: number, motion: Motion, client: ClientInfo): Promise<SprinklerDetail> {
    const { db, commands, telemetry, logs } = this.deps;
    const sprinkler = await this.controllable(actor, id);
    const machine = loggedMachine(sprinkler);
    const result = await commands.run(
      { type: 'motion', motion },
      { actorUserId: actor.id, machine, event: motion, ip: client.ip, failure: 'sprinkler_motion_failure' },
    );
    await telemetry.confirmStatus(db, sprinkler.internalId, result.status);
    await logs.record(db, {
      eventType: 'sprinkler_motion_success',
      actorUserId: actor.id,
      sprinkler: machine,
      event: motion,
      ip: client.ip,
    });
    return this.present(db, sprinkler, actor);
  }
}
