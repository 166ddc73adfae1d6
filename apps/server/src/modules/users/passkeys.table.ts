import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.table';

/**
 * A user's passkey (WebAuthn, docs/two-factor.md#passkeys): the credential's id and public key as
 * the authenticator gave them. The private key never leaves the authenticator, so neither column
 * signs anyone in: a backup holding them holds what any site the passkey signs in to is shown.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id, base64url: what the browser names it by at sign-in. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url: checks the signatures it makes. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: an answer with a counter not above it is a copy (0 when it keeps none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
);

/** The challenge a passkey being made must sign, one per user, live five minutes. */
export const passkeyRegistrations = pgTable('passkey_registrations', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
