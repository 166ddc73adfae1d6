import type { LogEventType } from '@pivot/contracts';
import { type SQL, type SQLWrapper, and, count, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type LogEntryRow, logEntries, logReads } from './logs.table';

export type NewLogEntry = {
  eventType: LogEventType;
  actorUserId: number | null;
  subjectUserId?: number | null;
  /** The machine the event is about; id and name are null for one that was never added. */
  sprinkler?: { id: number | null; name: string | null; internalId: string } | null;
  event: string;
  details?: string;
  ip: string;
};

/** Returns the new entry's id. */
export async function insertLogEntry(db: Queryable, entry: NewLogEntry): Promise<number> {
  const [row] = await db
    .insert(logEntries)
    .values({
      eventType: entry.eventType,
      actorUserId: entry.actorUserId,
      subjectUserId: entry.subjectUserId ?? null,
      sprinklerId: entry.sprinkler?.id ?? null,
      sprinklerName: entry.sprinkler?.name ?? null,
      sprinklerInternalId: entry.sprinkler?.internalId ?? null,
      event: entry.event,
      details: entry.details ?? '',
      ip: entry.ip,
    })
    .returning({ id: logEntries.id });
  return row!.id;
}

/** What an ordinary user may read: the entries about themselves and about the machines granted to them. */
export type OwnEntries = { userId: number; grantedMachineIds: SQLWrapper };

function visibleTo(own: OwnEntries | 'all'): SQL | undefined {
  if (own === 'all') return undefined;
  return or(
    eq(logEntries.actorUserId, own.userId),
    eq(logEntries.subjectUserId, own.userId),
    inArray(logEntries.sprinklerId, own.grantedMachineIds),
  );
}

export async function findReadAt(db: Queryable, userId: number): Promise<Date | null> {
  const [row] = await db.select({ readAt: logReads.readAt }).from(logReads).where(eq(logReads.userId, userId));
  return row?.readAt ?? null;
}

export async function listLogEntries(
  db: Queryable,
  visible: OwnEntries | 'all',
  options: { unreadAfter: Date | null | undefined; limit: number; offset: number },
): Promise<{ count: number; rows: LogEntryRow[] }> {
  const where = and(
    visibleTo(visible),
    options.unreadAfter ? gt(logEntries.createdAt, options.unreadAfter) : undefined,
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

/** Uses the database clock, like the entries' own timestamps, so no entry is skipped or repeated. */
export async function markLogsRead(db: Queryable, userId: number): Promise<void> {
  await db
    .insert(logReads)
    .values({ userId, readAt: sql`now()` })
    .onConflictDoUpdate({ target: logReads.userId, set: { readAt: sql`now()` } });
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
