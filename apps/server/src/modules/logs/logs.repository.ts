import type { LogEventType } from '@pivot/contracts';
import { type SQL, type SQLWrapper, and, count, desc, eq, gt, inArray, lte, notExists, or, sql } from 'drizzle-orm';
import { chunked } from '../../db/chunked';
import type { Queryable } from '../../db/client';
import { type LogEntryRow, logEntries, logEntryReads, logReads } from './logs.table';

export type NewLogEntry = {
  eventType: LogEventType;
  actorUserId: number | null;
  subjectUserId?: number | null;
  /** The machine the event is about; id and name are null for one that was never added. */
  sprinkler?: { id: number | null; name: string | null; internalId: string } | null;
  /** The farm the event is about, named as it is now. */
  farm?: { id: number; name: string } | null;
  event: string;
  details?: string;
  ip: string;
};

/** Returns the new entry's id. */
export async function insertLogEntry(
  db: Queryable,
  entry: NewLogEntry,
  dealerActingOn?: DealerActingOn,
): Promise<number> {
  const [id] = await insertLogEntries(db, [entry], dealerActingOn);
  return id!;
}

/** Rows a statement inserts: eleven parameters a row. */
const ENTRIES_PER_INSERT = 1_000;

/**
 * Inserts the entries in as few statements as the parameter limit allows; their ids, in the
 * entries' order (a statement takes its ids from the sequence in the order of its rows).
 */
/** The dealer an actor acted for on a machine, as an expression of the insert (access's). */
export type DealerActingOn = (userId: number, sprinklerId: number) => SQL<string | null>;

export async function insertLogEntries(
  db: Queryable,
  entries: NewLogEntry[],
  dealerActingOn?: DealerActingOn,
): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunked(entries, ENTRIES_PER_INSERT)) {
    const rows = await db
      .insert(logEntries)
      .values(
        chunk.map((entry) => ({
          eventType: entry.eventType,
          actorUserId: entry.actorUserId,
          subjectUserId: entry.subjectUserId ?? null,
          sprinklerId: entry.sprinkler?.id ?? null,
          sprinklerName: entry.sprinkler?.name ?? null,
          sprinklerInternalId: entry.sprinkler?.internalId ?? null,
          farmId: entry.farm?.id ?? null,
          farmName: entry.farm?.name ?? null,
          dealerName:
            dealerActingOn && entry.actorUserId !== null && entry.sprinkler?.id
              ? dealerActingOn(entry.actorUserId, entry.sprinkler.id)
              : null,
          event: entry.event,
          details: entry.details ?? '',
          ip: entry.ip,
        })),
      )
      .returning({ id: logEntries.id });
    ids.push(...rows.map((row) => row.id).sort((a, b) => a - b));
  }
  return ids;
}

/**
 * What an ordinary user may read: the entries about themselves, about the machines they may use
 * and about the farms they run.
 */
export type OwnEntries = { userId: number; grantedMachineIds: SQLWrapper; managedFarmIds: SQLWrapper };

function visibleTo(own: OwnEntries | 'all'): SQL | undefined {
  if (own === 'all') return undefined;
  return or(
    eq(logEntries.actorUserId, own.userId),
    eq(logEntries.subjectUserId, own.userId),
    inArray(logEntries.sprinklerId, own.grantedMachineIds),
    inArray(logEntries.farmId, own.managedFarmIds),
  );
}

export async function findReadAt(db: Queryable, userId: number): Promise<Date | null> {
  const [row] = await db.select({ readAt: logReads.readAt }).from(logReads).where(eq(logReads.userId, userId));
  return row?.readAt ?? null;
}

/** Whose read marks decide what is unread: the moment they last read the whole log, and entries read one by one. */
export type Reader = { userId: number; readAt: Date | null };

export async function listLogEntries(
  db: Queryable,
  visible: OwnEntries | 'all',
  options: {
    unreadOf?: Reader;
    /** Only the entries about this farm or its machines. */
    ofFarm?: { farmId: number; machineIds: SQLWrapper };
    limit: number;
    offset: number;
  },
): Promise<{ count: number; rows: LogEntryRow[] }> {
  const { unreadOf, ofFarm } = options;
  const where = and(
    visibleTo(visible),
    ofFarm && or(eq(logEntries.farmId, ofFarm.farmId), inArray(logEntries.sprinklerId, ofFarm.machineIds)),
    unreadOf?.readAt ? gt(logEntries.createdAt, unreadOf.readAt) : undefined,
    unreadOf
      ? notExists(
          db
            .select({ one: sql`1` })
            .from(logEntryReads)
            .where(and(eq(logEntryReads.userId, unreadOf.userId), eq(logEntryReads.logEntryId, logEntries.id))),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(logEntries)
      .where(where)
      .orderBy(desc(logEntries.createdAt), desc(logEntries.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ value: count() }).from(logEntries).where(where),
  ]);
  return { count: total?.value ?? 0, rows };
}

/** Of these entries, the ones the user read one by one. */
export async function findEntriesReadOneByOne(db: Queryable, userId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: logEntryReads.logEntryId })
    .from(logEntryReads)
    .where(and(eq(logEntryReads.userId, userId), inArray(logEntryReads.logEntryId, ids)));
  return new Set(rows.map((row) => row.id));
}

/** Marks read those of the entries the user may see; the others are passed over as if they did not exist. */
export async function markEntriesRead(
  db: Queryable,
  userId: number,
  visible: OwnEntries | 'all',
  ids: number[],
): Promise<void> {
  await db
    .insert(logEntryReads)
    .select(
      db
        .select({ userId: sql<number>`${userId}::integer`.as('user_id'), logEntryId: logEntries.id })
        .from(logEntries)
        .where(and(inArray(logEntries.id, ids), visibleTo(visible))),
    )
    .onConflictDoNothing();
}

/**
 * Uses the database clock, like the entries' own timestamps, so no entry is skipped or repeated;
 * the entries read one by one up to then need no mark of their own any more.
 */
export async function markLogsRead(db: Queryable, userId: number): Promise<void> {
  await db
    .insert(logReads)
    .values({ userId, readAt: sql`now()` })
    .onConflictDoUpdate({ target: logReads.userId, set: { readAt: sql`now()` } });
  await db.delete(logEntryReads).where(
    and(
      eq(logEntryReads.userId, userId),
      inArray(
        logEntryReads.logEntryId,
        db
          .select({ id: logEntries.id })
          .from(logEntries)
          .where(
            lte(
              logEntries.createdAt,
              sql`(select ${logReads.readAt} from ${logReads} where ${logReads.userId} = ${userId})`,
            ),
          ),
      ),
    ),
  );
}

/** Entries of the given types after the given id, oldest first. */
export async function listEntriesAfter(
  db: Queryable,
  afterId: number,
  eventTypes: readonly LogEventType[],
  limit: number,
): Promise<LogEntryRow[]> {
  return db
    .select()
    .from(logEntries)
    .where(and(gt(logEntries.id, afterId), inArray(logEntries.eventType, [...eventTypes])))
    .orderBy(logEntries.id)
    .limit(limit);
}

export async function findLatestEntryId(db: Queryable): Promise<number> {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${logEntries.id}), 0)` }).from(logEntries);
  return Number(row?.id ?? 0);
}

export async function findEntriesByIds(db: Queryable, ids: number[]): Promise<LogEntryRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(logEntries).where(inArray(logEntries.id, ids)).orderBy(logEntries.id);
}

/** The newest entry of this type written after `after` (of all time when undefined). */
export async function findNewestEntryAfter(
  db: Queryable,
  eventType: LogEventType,
  after: Date | undefined,
): Promise<LogEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(logEntries)
    .where(and(eq(logEntries.eventType, eventType), after ? gt(logEntries.createdAt, after) : undefined))
    .orderBy(desc(logEntries.id))
    .limit(1);
  return row;
}
