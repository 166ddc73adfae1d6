import { count, desc, gte, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type NewQuarantinedMessageRow, type QuarantinedMessageRow, quarantinedMessages } from './quarantine.table';

export async function insertQuarantined(db: Queryable, row: NewQuarantinedMessageRow): Promise<void> {
  await db.insert(quarantinedMessages).values(row);
}

/** Newest first. */
export async function listQuarantined(
  db: Queryable,
  options: { limit: number; offset: number },
): Promise<{ count: number; rows: QuarantinedMessageRow[] }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(quarantinedMessages)
      .orderBy(desc(quarantinedMessages.receivedAt), desc(quarantinedMessages.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ value: count() }).from(quarantinedMessages),
  ]);
  return { count: total?.value ?? 0, rows };
}

/** Deleting is idempotent: instances that prune at the same moment only delete the same rows. */
export async function deleteQuarantinedBefore(db: Queryable, before: Date): Promise<void> {
  await db.delete(quarantinedMessages).where(lt(quarantinedMessages.receivedAt, before));
}

/**
 * How many machine messages every instance set aside since `since`: one for each row kept, and
 * for a flood's summary row the messages it says were not kept (the last of which it shows).
 * Reads the index on received_at.
 */
export async function countSetAsideSince(db: Queryable, since: Date): Promise<number> {
  const { reason, explanation } = quarantinedMessages;
  const messages = sql`case when ${reason} = 'rate_limited' then coalesce((${explanation} ->> 'notKept')::int, 1) else 1 end`;
  const [row] = await db
    .select({ value: sql<number>`coalesce(sum(${messages}), 0)::int` })
    .from(quarantinedMessages)
    .where(gte(quarantinedMessages.receivedAt, since));
  return Number(row?.value ?? 0);
}
