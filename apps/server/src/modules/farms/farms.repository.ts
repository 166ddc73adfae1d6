import type { FarmRole, Language } from '@pivot/contracts';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type FarmInvitationRow, farmInvitations } from './farms.table';

const OPEN = and(isNull(farmInvitations.acceptedAt), isNull(farmInvitations.revokedAt));

/** The new invitation; null when the address has one waiting for the farm. */
export async function insertInvitation(
  db: Queryable,
  values: { farmId: number; email: string; role: FarmRole; language: Language; invitedBy: number; mailBy: Date },
): Promise<FarmInvitationRow | null> {
  const rows = await db.insert(farmInvitations).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

/** The farm's invitations waiting, newest first. */
export function listOpenInvitations(db: Queryable, farmId: number): Promise<FarmInvitationRow[]> {
  return db
    .select()
    .from(farmInvitations)
    .where(and(eq(farmInvitations.farmId, farmId), OPEN))
    .orderBy(desc(farmInvitations.sentAt), desc(farmInvitations.id));
}

/** One of the farm's invitations waiting. */
export async function findOpenInvitation(
  db: Queryable,
  farmId: number,
  id: number,
): Promise<FarmInvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(farmInvitations)
    .where(and(eq(farmInvitations.id, id), eq(farmInvitations.farmId, farmId), OPEN));
  return row;
}

/** Sent again: a new mail to send by `mailBy`; the link mailed before stops working now. */
export async function renewInvitation(db: Queryable, id: number, mailBy: Date): Promise<FarmInvitationRow> {
  const [row] = await db
    .update(farmInvitations)
    .set({ sentAt: sql`now()`, mailBy, tokenHash: null, expiresAt: null })
    .where(eq(farmInvitations.id, id))
    .returning();
  return row!;
}

export async function revokeInvitation(db: Queryable, id: number): Promise<void> {
  await db
    .update(farmInvitations)
    .set({ revokedAt: sql`now()`, tokenHash: null })
    .where(eq(farmInvitations.id, id));
}

/**
 * Stores the hash of the token its mail is carrying, valid for `lifetimeMs` from now; false when
 * the invitation no longer wants one (accepted, revoked, resent, or past its mailing window).
 */
export async function issueInvitationToken(
  db: Queryable,
  id: number,
  tokenHash: string,
  lifetimeMs: number,
): Promise<boolean> {
  const rows = await db
    .update(farmInvitations)
    .set({ tokenHash, expiresAt: sql`now() + ${`${lifetimeMs} milliseconds`}::interval` })
    .where(
      and(eq(farmInvitations.id, id), OPEN, isNull(farmInvitations.tokenHash), gt(farmInvitations.mailBy, sql`now()`)),
    )
    .returning({ id: farmInvitations.id });
  return rows.length > 0;
}

/**
 * The invitation the link opens: waiting, its token the one mailed last, not expired (on the
 * database's clock); locked when `forUpdate`, so that one acceptance wins.
 */
export async function findInvitationByToken(
  db: Queryable,
  id: number,
  tokenHash: string,
  forUpdate = false,
): Promise<FarmInvitationRow | undefined> {
  const query = db
    .select()
    .from(farmInvitations)
    .where(
      and(
        eq(farmInvitations.id, id),
        eq(farmInvitations.tokenHash, tokenHash),
        OPEN,
        gt(farmInvitations.expiresAt, sql`now()`),
      ),
    );
  const [row] = await (forUpdate ? query.for('update') : query);
  return row;
}

export async function markAccepted(db: Queryable, id: number): Promise<void> {
  await db
    .update(farmInvitations)
    .set({ acceptedAt: sql`now()`, tokenHash: null })
    .where(eq(farmInvitations.id, id));
}
