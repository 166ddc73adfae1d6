import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import type { MailSecret } from './mail-secrets';
import type { OutgoingMail } from './mail-transport';
import { mailOutbox } from './mail.table';

export type OutboxMailRow = typeof mailOutbox.$inferSelect;

/** Pass the transaction that does what the mail tells about, so neither exists without the other. */
export async function enqueueMail(db: Queryable, mail: OutgoingMail, secret?: MailSecret): Promise<void> {
  await db.insert(mailOutbox).values({
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    secretIssuer: secret?.issuer,
    secretFor: secret?.id,
  });
}

/**
 * Takes up to `limit` due mails for this sender. Other instances skip the locked rows instead of
 * waiting for them, and the claimed rows come due again only after the lease, so the mails of a
 * sender that dies while sending are retried rather than lost.
 */
export async function claimDueMails(db: Database, limit: number, leaseMs: number): Promise<OutboxMailRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
      .where(
        inArray(
          mailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return claimed.sort((a, b) => a.id - b.id);
  });
}

export async function markSent(db: Queryable, id: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: sql`now()` })
    .where(eq(mailOutbox.id, id));
}

export async function markCancelled(db: Queryable, id: number, reason: string): Promise<void> {
  await db.update(mailOutbox).set({ status: 'cancelled', lastError: reason }).where(eq(mailOutbox.id, id));
}

/** Counts the failed attempt; without a next attempt the mail is given up on. */
export async function markAttemptFailed(
  db: Queryable,
  id: number,
  error: string,
  nextAttemptAt: Date | null,
): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      lastError: error,
      ...(nextAttemptAt ? { nextAttemptAt } : { status: 'failed' as const }),
    })
    .where(eq(mailOutbox.id, id));
}
