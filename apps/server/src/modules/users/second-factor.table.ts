import { bigint, boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.table';

/**
 * A user's authenticator app (TOTP, RFC 6238): its secret sealed under the server's sealing key
 * (secret-box.ts), so the database and its backups alone sign in nowhere. A row without
 * `enabledAt` is a set-up not confirmed by a code yet, and asks nothing at sign-in.
 */
export const secondFactors = pgTable('second_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sealedSecret: text('sealed_secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The 30-second step of the last code taken: a code of it or before is not taken again. */
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use codes for a user without their authenticator; only their SHA-256 is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('recovery_codes_user_idx').on(table.userId)],
);

/** A right password waiting for its second factor: the token's SHA-256, single-use, short-lived. */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The login's "remember me", for the session the second factor starts. */
    persistent: boolean('persistent').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes given for it: past a few, it is spent and the password is asked again. */
    failures: integer('failures').notNull().default(0),
    /** The WebAuthn challenge of its passkey prompt (base64url), once the browser asked for one. */
    passkeyChallenge: text('passkey_challenge'),
  },
  (table) => [index('sign_in_challenges_user_idx').on(table.userId)],
);

/** A browser its user chose to remember: it skips the second factor until it expires. */
export const rememberedBrowsers = pgTable(
  'remembered_browsers',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('remembered_browsers_user_idx').on(table.userId)],
);
