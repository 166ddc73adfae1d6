import type { LogEventType } from '@pivot/contracts';
import { and, count, desc, eq, gt, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sprinklerAccess } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';
import { type LogEntryRow, logEntries } from './logs.table';

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

export async function insertLogEntry(db: Queryable, entry: NewLogEntry): Promise<void> {
  await db.insert(logEntries).values({
    eventType: entry.eventType,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.subjectUserId ?? null,
    sprinklerId: entry.sprinkler?.id ?? null,
    sprinklerName: entry.sprinkler?.name ?? null,
    sprinklerInternalId: entry.sprinkler?.internalId ?? null,
    event: entry.event,
    details: entry.details ?? '',
    ip: entry.ip,
  });
}

export type LogViewer = { id: number; admin: boolean; logsReadAt: Date | null };

/** Administrators read every entry; others the entries about themselves and their machines. */
function visibleTo(db: Queryable, viewer: LogViewer): SQL | undefined {
  if (viewer.admin) return undefined;
  const grantedSprinklers = db
    .select({ id: sprinklerAccess.sprinklerId })
    .from(sprinklerAccess)
    .where(eq(sprinklerAccess.userId, viewer.id));
  return or(
    eq(logEntries.actorUserId, viewer.id),
    eq(logEntries.subjectUserId, viewer.id),
    inArray(logEntries.sprinklerId, grantedSprinklers),
  );
}

function unreadBy(viewer: LogViewer): SQL {
  return viewer.logsReadAt ? gt(logEntries.createdAt, viewer.logsReadAt) : sql`true`;
}

export async function listLogEntries(
  db: Queryable,
  viewer: LogViewer,
  options: { onlyUnread: boolean; limit: number; offset: number },
): Promise<{ count: number; rows: LogEntryRow[] }> {
  const where = and(visibleTo(db, viewer), options.onlyUnread ? unreadBy(viewer) : undefined);
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
    .update(users)
    .set({ logsReadAt: sql`now()` })
    .where(eq(users.id, userId));
}
