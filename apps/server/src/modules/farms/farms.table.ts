import { FARM_ROLES } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { farms } from '../access/access.table';
import { users } from '../users/users.table';

/**
 * Invitations to a farm by e-mail (docs/roles.md). The link's token is made only as its mail is
 * sent and kept as a hash; accepting, revoking or resending the invitation clears it, so a link
 * works once, and only the newest one mailed.
 */
export const farmInvitations = pgTable(
  'farm_invitations',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: FARM_ROLES }).notNull(),
    /** The language of its mail: the page's language of the one who invited. */
    language: text('language', { enum: ['pl', 'en'] }).notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    /** A mail not sent by then is dropped, and its link never made. */
    mailBy: timestamp('mail_by', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    // One invitation waiting per address and farm: a second is a resend.
    uniqueIndex('farm_invitations_open_idx')
      .on(table.farmId, table.email)
      .where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
    index('farm_invitations_farm_idx').on(table.farmId),
  ],
);

export type FarmInvitationRow = typeof farmInvitations.$inferSelect;
