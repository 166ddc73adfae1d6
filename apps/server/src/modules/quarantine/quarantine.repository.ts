import { count, desc, lt } from 'drizzle-orm';
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
