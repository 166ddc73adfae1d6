import type { SprinklerAdminListQuery } from '@pivot/contracts';
import {
  type SQL,
  type SQLWrapper,
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { machineState } from '../telemetry';
import { sprinklers } from './sprinklers.table';

export type SprinklerRow = typeof sprinklers.$inferSelect;
export type NewSprinklerRow = typeof sprinklers.$inferInsert;

export async function findSprinkler(db: Queryable, id: number): Promise<SprinklerRow | undefined> {
  const [row] = await db.select().from(sprinklers).where(eq(sprinklers.id, id));
  return row;
}

export async function findSprinklerByInternalId(db: Queryable, internalId: string): Promise<SprinklerRow | undefined> {
  const [row] = await db.select().from(sprinklers).where(eq(sprinklers.internalId, internalId));
  return row;
}

/**
 * Machines by name and id: all of them, or those whose ids the subquery `among` gives (the
 * machines granted to a user), or those of the given ids.
 */
export async function listSprinklers(db: Queryable, among?: SQLWrapper | number[]): Promise<SprinklerRow[]> {
  if (Array.isArray(among) && among.length === 0) return [];
  return db
    .select()
    .from(sprinklers)
    .where(among === undefined ? undefined : inArray(sprinklers.id, among))
    .orderBy(asc(sprinklers.name), asc(sprinklers.id));
}

/** The columns of a machine that its list form shows: all but the area map. */
const LISTED_SPRINKLER = {
  id: sprinklers.id,
  internalId: sprinklers.internalId,
  name: sprinklers.name,
  lat: sprinklers.lat,
  lng: sprinklers.lng,
  lowPressureBar: sprinklers.lowPressureBar,
};

/** Every machine, or those of the given ids, as its list form shows it, without its latest state. */
export async function listListedSprinklers(db: Queryable, ids?: number[]) {
  if (ids?.length === 0) return [];
  return db
    .select(LISTED_SPRINKLER)
    .from(sprinklers)
    .where(ids === undefined ? undefined : inArray(sprinklers.id, ids));
}

/** What the machines list shows of a machine's latest state: no arm position, no program geometry. */
const LISTED_STATE = {
  online: machineState.online,
  reportedAt: machineState.reportedAt,
  status: machineState.status,
  angle: machineState.angle,
  distance: machineState.distance,
  speed: machineState.speed,
  pressure: machineState.pressure,
  flow: machineState.flow,
  programName: machineState.programName,
  programLoaded: sql<boolean>`${machineState.programData} is not null`,
  programUploadedAt: machineState.programUploadedAt,
};

/**
 * The machines list in one query: each machine by name and id with its latest state, all of
 * them or, when `granted` is given, those whose ids that subquery gives (the machines granted to
 * the user of its placeholder). Neither the area map nor the program's geometry is read: the list
 * shows neither. Asked whenever a machines table opens, so prepared once per database, as `name`.
 */
export function prepareMachineListQuery(db: Database, name: string, granted?: SQLWrapper) {
  const query = db
    .select({
      ...LISTED_SPRINKLER,
      // Null when the machine has never said anything: it has no row of state yet.
      stateOf: machineState.machineId,
      ...LISTED_STATE,
    })
    .from(sprinklers)
    .leftJoin(machineState, eq(machineState.machineId, sprinklers.internalId))
    .where(granted === undefined ? undefined : inArray(sprinklers.id, granted))
    .orderBy(asc(sprinklers.name), asc(sprinklers.id))
    .prepare(name);
  return async (values: Record<string, unknown>) =>
    (await query.execute(values)).map(
      ({ id, internalId, name, lat, lng, lowPressureBar, stateOf, online, ...state }) => ({
        sprinkler: { id, internalId, name, lat, lng, lowPressureBar },
        state: stateOf === null ? undefined : { ...state, online: online ?? false },
      }),
    );
}

/** The machine of this id, if it is among those the subquery gives. */
export async function findSprinklerAmong(
  db: Queryable,
  id: number,
  among: SQLWrapper,
): Promise<SprinklerRow | undefined> {
  const [row] = await db
    .select()
    .from(sprinklers)
    .where(and(eq(sprinklers.id, id), inArray(sprinklers.id, among)));
  return row;
}

export async function insertSprinkler(db: Queryable, values: NewSprinklerRow): Promise<SprinklerRow> {
  try {
    const [row] = await db.insert(sprinklers).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('sprinkler_exists');
    throw error;
  }
}

export async function updateSprinkler(
  db: Queryable,
  id: number,
  values: Partial<NewSprinklerRow>,
): Promise<SprinklerRow | undefined> {
  if (Object.values(values).every((value) => value === undefined)) return findSprinkler(db, id);
  const [row] = await db.update(sprinklers).set(values).where(eq(sprinklers.id, id)).returning();
  return row;
}

const SORT_COLUMNS = {
  id: sprinklers.id,
  internalId: sprinklers.internalId,
  name: sprinklers.name,
} as const;

/** A page of machines for the administrators' list, optionally without those in `excluding` (a subquery of ids). */
export async function listSprinklersForAdmin(
  db: Queryable,
  query: SprinklerAdminListQuery,
  excluding?: SQLWrapper,
): Promise<{ count: number; rows: SprinklerRow[] }> {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    conditions.push(or(ilike(sprinklers.name, pattern), ilike(sprinklers.internalId, pattern))!);
  }
  if (excluding) conditions.push(notInArray(sprinklers.id, excluding));
  const where = and(...conditions);
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sprinklers)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[query.sort]), direction(sprinklers.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(sprinklers).where(where),
  ]);
  return { count: total?.value ?? 0, rows };
}

/** The broker IDs of every added machine. */
export async function listMachineIds(db: Queryable): Promise<string[]> {
  const rows = await db.select({ internalId: sprinklers.internalId }).from(sprinklers).orderBy(asc(sprinklers.id));
  return rows.map((row) => row.internalId);
}

/** Every added machine's pivot centre and arm length, as it told when added. */
export async function listMachineArms(
  db: Queryable,
): Promise<{ internalId: string; lat: string; lng: string; armLength: number }[]> {
  return db
    .select({
      internalId: sprinklers.internalId,
      lat: sprinklers.lat,
      lng: sprinklers.lng,
      armLength: sprinklers.armLength,
    })
    .from(sprinklers);
}

/** What the incident watch needs of every added machine, without its area map. */
export async function listWatchedMachines(db: Queryable) {
  return db
    .select({
      id: sprinklers.id,
      name: sprinklers.name,
      internalId: sprinklers.internalId,
      lowPressureBar: sprinklers.lowPressureBar,
      lat: sprinklers.lat,
      lng: sprinklers.lng,
      armLength: sprinklers.armLength,
    })
    .from(sprinklers)
    .orderBy(asc(sprinklers.id));
}

/**
 * A machine's revision and live state in one query (docs/architecture.md, "The machine detail"),
 * if the machine of the placeholder `id` exists and, when `granted` is given, is among the
 * machines that subquery gives: the columns `live` adds come from the modules that own them.
 * Asked on every visit of a machine's page, so prepared once per database, as `name`.
 */
export function prepareLiveDetailQuery<Live extends Record<string, SQL.Aliased | SQL>>(
  db: Database,
  name: string,
  live: Live,
  granted?: SQLWrapper,
) {
  const query = db
    .select({ revision: sprinklers.revision, state: getTableColumns(machineState), ...live })
    .from(sprinklers)
    .leftJoin(machineState, eq(machineState.machineId, sprinklers.internalId))
    .where(
      and(
        eq(sprinklers.id, sql.placeholder('id')),
        granted === undefined ? undefined : inArray(sprinklers.id, granted),
      ),
    )
    .prepare(name);
  return async (values: Record<string, unknown>) => (await query.execute(values))[0];
}
