import type {
  ShownMachineState,
  SprinklerAdminListQuery,
  SprinklerListItem,
  SprinklerPageQuery,
  SprinklerPageSort,
} from '@pivot/contracts';
import { type SQL, type SQLWrapper, and, asc, count, desc, eq, ilike, inArray, notInArray, or, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { type MachineStateRow, epochMs, latestStates, onlineAt } from '../telemetry';
import { readingOrder, sprinklers } from './sprinklers.table';

export type SprinklerRow = typeof sprinklers.$inferSelect;
export type NewSprinklerRow = typeof sprinklers.$inferInsert;

/** What the list form shows of a machine: its row without the area map. */
export type ListedSprinkler = Pick<SprinklerRow, 'id' | 'internalId' | 'name' | 'lat' | 'lng' | 'lowPressureBar'>;

/** What the list form shows of a machine's latest state: whether a program is loaded, not its geometry. */
export type ListedState = Pick<
  MachineStateRow,
  | 'online'
  | 'reportedAt'
  | 'status'
  | 'angle'
  | 'distance'
  | 'speed'
  | 'pressure'
  | 'flow'
  | 'programName'
  | 'programUploadedAt'
> & { programLoaded: boolean };

/**
 * Each machine's id with a digest of its area map, as a subquery to join: for a query of another
 * module that must tell when a machine's map was redrawn (the advice's kept readings), while the
 * table stays this module's.
 */
export const areaMapDigests = new QueryBuilder()
  .select({ id: sprinklers.id, areaMapDigest: sql<string>`md5(${sprinklers.areaMap}::text)`.as('area_map_digest') })
  .from(sprinklers)
  .as('area_map_digests');

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

/**
 * A digest of every machine's row and grants that changes whenever any of them does: a machine
 * added (the largest id), removed (the count), or its row, programs, grants or granted users
 * changed (the revisions' sum; migration 0010's triggers raise a revision in the change's own
 * transaction, through whichever instance). One row however many machines, so a look that finds
 * nothing changed reads none of them into the server.
 */
export async function machinesDigest(db: Queryable): Promise<string> {
  const [row] = await db
    .select({
      digest: sql<string>`count(*) || ':' || coalesce(sum(${sprinklers.revision}), 0) || ':' || coalesce(max(${sprinklers.id}), 0)`,
    })
    .from(sprinklers);
  return row!.digest;
}

/** Every machine, or those of the given ids, as its list form shows it, without its latest state. */
export async function listListedSprinklers(db: Queryable, ids?: number[]) {
  if (ids?.length === 0) return [];
  return db
    .select(LISTED_SPRINKLER)
    .from(sprinklers)
    .where(ids === undefined ? undefined : inArray(sprinklers.id, ids));
}

/** A value as JSON text: numbers, booleans and null as PostgreSQL writes them, text through `to_json`. */
const asJson = {
  number: (value: SQLWrapper) => sql`coalesce(${value}::text, 'null')`,
  text: (value: SQLWrapper) => sql`coalesce(to_json(${value})::text, 'null')`,
  boolean: (value: SQLWrapper) => sql`case when ${value} then 'true' else 'false' end`,
  /** A decimal as the contract's numeric string (its codec writes `String(Number(text))`): no trailing zeros. */
  numericString: (value: SQLWrapper) => sql`'"' || trim_scale(${value})::text || '"'`,
};

/**
 * A machine's list form (`SprinklerListItemSchema`) as JSON the database writes from the
 * machine's row and its latest state, byte for byte as the compiled serializer writes what
 * `presentSprinklerListItem` gives (both tested): the schema's keys in its order, no spaces.
 * Concatenated rather than `json_build_object` (which writes spaces) or `to_json` of every value
 * (which looks up each value's type on every call: twice the time). Neither the area map nor the
 * program's geometry is read: the list shows neither.
 */
function listItemJson(nowMs: SQLWrapper): SQL<string> {
  const state = latestStates;
  const fields: Record<keyof SprinklerListItem, SQL> = {
    id: asJson.number(sprinklers.id),
    internalId: asJson.text(sprinklers.internalId),
    name: asJson.text(sprinklers.name),
    lat: asJson.numericString(sprinklers.lat),
    lng: asJson.numericString(sprinklers.lng),
    distance: asJson.number(state.distance),
    angle: asJson.number(state.angle),
    status: asJson.text(state.status),
    speed: asJson.number(state.speed),
    pressure: asJson.number(state.pressure),
    flow: asJson.number(state.flow),
    online: asJson.boolean(onlineAt(nowMs)),
    reportedAt: asJson.number(epochMs(state.reportedAt)),
    currentProgramTimestamp: asJson.number(epochMs(state.programUploadedAt)),
    lowPressureBar: asJson.number(sprinklers.lowPressureBar),
    currentProgramName: asJson.text(
      sql`case when ${state.programData} is not null then nullif(${state.programName}, '') end`,
    ),
  };
  const written = Object.entries(fields).map(
    ([key, value], index) => sql`${sql.raw(`'${index === 0 ? '{' : ','}"${key}":'`)} || ${value}`,
  );
  return sql<string>`(${sql.join(written, sql` || `)} || '}')`;
}

/**
 * The machines list's answer, by name and id, in one query that returns one text: all machines
 * or, when `granted` is given, those whose ids that subquery gives (the machines granted to the
 * user of its placeholder `userId`); the placeholder `now` is the time `online` is judged at.
 * The database writes the JSON: at a dealer's 10,000 machines, reading their rows into objects,
 * presenting and serialising them held the server's event loop ~1 s a list, where the database
 * writes the same bytes in its own process, off the loop that stores the fleet's reports
 * (docs/benchmarks.md, "The dealers' pages at 10,000"). Asked whenever a machines table opens,
 * so prepared once per database, as `name`.
 */
export function prepareMachineListQuery(db: Database, name: string, granted?: SQLWrapper) {
  const items = sql`string_agg(${listItemJson(sql.placeholder('now'))}, ',' order by ${sprinklers.name}, ${sprinklers.id})`;
  const query = db
    .select({ json: sql<string>`'[' || coalesce(${items}, '') || ']'` })
    .from(sprinklers)
    .leftJoin(latestStates, eq(latestStates.machineId, sprinklers.internalId))
    .where(granted === undefined ? undefined : inArray(sprinklers.id, granted))
    .prepare(name);
  return async (values: { userId: number; now: number }): Promise<string> => (await query.execute(values))[0]!.json;
}

/** What a page of the machines list asks for, the search already turned into the states whose words it matches. */
export type MachinePageRequest = Omit<SprinklerPageQuery, 'search'> & {
  search?: { text: string; states: ShownMachineState[] };
};

/** The name of the program a machine runs, as its list form shows it: none without the program's sectors. */
const runningProgramName = sql<string | null>`case when ${latestStates.programData} is not null
  then nullif(${latestStates.programName}, '') end`;

/**
 * What each sortable column of the machines table sorts by. Name and broker ID are never null,
 * so their order leaves out `nulls last` and can follow their index both ways (the first page by
 * name reads 25 rows of `sprinklers_name_order_idx`, not the fleet).
 */
const PAGE_SORT_VALUES: Record<Exclude<SprinklerPageSort, 'farm'>, { value: SQLWrapper; nullable: boolean }> = {
  name: { value: readingOrder(sprinklers.name), nullable: false },
  internalId: { value: readingOrder(sprinklers.internalId), nullable: false },
  distance: { value: latestStates.distance, nullable: true },
  angle: { value: latestStates.angle, nullable: true },
  status: { value: latestStates.status, nullable: true },
  speed: { value: latestStates.speed, nullable: true },
  pressure: { value: latestStates.pressure, nullable: true },
  flow: { value: latestStates.flow, nullable: true },
  program: { value: readingOrder(runningProgramName), nullable: true },
  uploaded: { value: latestStates.programUploadedAt, nullable: true },
};

/** Whether a machine is shown in one of these states at `nowMs` (its status '' before its first report). */
function shownInStates(states: ShownMachineState[], online: SQL<boolean>): SQL {
  if (states.length === 0) return sql`false`;
  const status = sql`coalesce(${latestStates.status}, '')`;
  const among = (wanted: boolean) =>
    states.filter((state) => state.online === wanted).map((state) => sql`${state.status ?? ''}`);
  const [whileOnline, whileOffline] = [among(true), among(false)];
  return or(
    whileOnline.length > 0 ? sql`(${online} and ${status} in (${sql.join(whileOnline, sql`, `)}))` : undefined,
    whileOffline.length > 0 ? sql`(not ${online} and ${status} in (${sql.join(whileOffline, sql`, `)}))` : undefined,
  )!;
}

/** A text as an ILIKE pattern that finds it anywhere, its own wildcards taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * One page of the machines list, sorted, searched and filtered in the database, with the number
 * that match: all machines or, when `among` is given, those whose ids that subquery gives. Only
 * the page's rows leave the database. A search or a filter counts the rows it finds; without
 * either, `count` gives the number (the caller's count of the user's grants, or of the fleet).
 */
export async function listSprinklerPage(
  db: Queryable,
  request: MachinePageRequest,
  {
    among,
    farmOf,
    nowMs,
    count: countAll,
  }: {
    among?: SQLWrapper;
    /** The id and the name of a machine's farm (the access module's expressions), listed and sorted by. */
    farmOf: (sprinklerId: SQLWrapper) => { id: SQL<number | null>; name: SQL<string | null> };
    nowMs: number;
    /** How many machines there are without a search or a filter; counted with the page when not given. */
    count?: () => Promise<number>;
  },
): Promise<{
  count: number;
  rows: { sprinkler: ListedSprinkler; state: ListedState | undefined; farmId: number | null }[];
}> {
  const online = onlineAt(sql`${nowMs}`);
  const { search, status } = request;
  const where = and(
    among === undefined ? undefined : inArray(sprinklers.id, among),
    search &&
      or(
        ilike(sprinklers.name, containing(search.text)),
        ilike(sprinklers.internalId, containing(search.text)),
        shownInStates(search.states, online),
      ),
    status === undefined
      ? undefined
      : status === 'offline'
        ? sql`not ${online}`
        : and(online, eq(latestStates.status, status)),
  );
  const direction = request.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  const farm = farmOf(sprinklers.id);
  const sortedBy =
    request.sort === 'farm' ? { value: readingOrder(farm.name), nullable: true } : PAGE_SORT_VALUES[request.sort];
  const withState = eq(latestStates.machineId, sprinklers.internalId);
  const [rows, total] = await Promise.all([
    db
      .select({
        sprinkler: LISTED_SPRINKLER,
        state: {
          machineId: latestStates.machineId,
          online: latestStates.online,
          reportedAt: latestStates.reportedAt,
          status: latestStates.status,
          angle: latestStates.angle,
          distance: latestStates.distance,
          speed: latestStates.speed,
          pressure: latestStates.pressure,
          flow: latestStates.flow,
          programName: latestStates.programName,
          programUploadedAt: latestStates.programUploadedAt,
          programLoaded: sql<boolean>`${latestStates.programData} is not null`,
        },
        farmId: farm.id,
      })
      .from(sprinklers)
      .leftJoin(latestStates, withState)
      .where(where)
      .orderBy(sql`${sortedBy.value} ${direction}${sortedBy.nullable ? sql` nulls last` : sql``}`, asc(sprinklers.id))
      .limit(request.pageSize)
      .offset((request.page - 1) * request.pageSize),
    search || status || !countAll
      ? db
          .select({ total: count() })
          .from(sprinklers)
          .leftJoin(latestStates, withState)
          .where(where)
          .then(([row]) => row?.total ?? 0)
      : countAll(),
  ]);
  return {
    count: total,
    rows: rows.map(({ sprinkler, state, farmId }) => ({
      sprinkler,
      farmId,
      // Drizzle nulls a left-joined object only when all its fields are: `programLoaded` is false without a row.
      state: state === null || state.machineId === null ? undefined : state,
    })),
  };
}

/** How many machines there are. */
export async function countSprinklers(db: Queryable): Promise<number> {
  const [row] = await db.select({ total: count() }).from(sprinklers);
  return row?.total ?? 0;
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
    const pattern = containing(query.search);
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
 * A machine's revision and live state in one query (docs/scaling.md, "The machine detail: cached
 * between visits"), if the machine of the placeholder `id` exists and, when `granted` is given, is among the
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
    .select({ revision: sprinklers.revision, state: latestStates._.selectedFields, ...live })
    .from(sprinklers)
    .leftJoin(latestStates, eq(latestStates.machineId, sprinklers.internalId))
    .where(
      and(
        eq(sprinklers.id, sql.placeholder('id')),
        granted === undefined ? undefined : inArray(sprinklers.id, granted),
      ),
    )
    .prepare(name);
  return async (values: Record<string, unknown>) => (await query.execute(values))[0];
}
