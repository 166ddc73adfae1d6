import { and, eq, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type IdempotentRequestRow, idempotentRequests } from './idempotency.table';

type RequestKey = { userId: number; key: string };

/** True when this request is the first with its key: it is handled, the others wait for its answer. */
export async function claimKey(
  db: Queryable,
  request: RequestKey & { fingerprint: string; claimedByServer: string; claimedByRun: string },
): Promise<boolean> {
  const rows = await db
    .insert(idempotentRequests)
    .values(request)
    .onConflictDoNothing()
    .returning({ key: idempotentRequests.key });
  return rows.length > 0;
}

export async function findRequest(
  db: Queryable,
  { userId, key }: RequestKey,
): Promise<IdempotentRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotentRequests)
    .where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key)));
  return row;
}

export async function saveAnswer(
  db: Queryable,
  { userId, key }: RequestKey,
  answer: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await db
    .update(idempotentRequests)
    .set(answer)
    .where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key)));
}

export async function deleteRequestsBefore(db: Queryable, before: Date): Promise<void> {
  await db.delete(idempotentRequests).where(lt(idempotentRequests.createdAt, before));
}
