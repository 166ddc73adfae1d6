import { boolean, index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.table';

/** A sign-in: one family of refresh tokens, each used once and replaced by the next. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** "Remember me": the cookie outlives the browser session. */
    persistent: boolean('persistent').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    /** SHA-256 of the token; the token itself is only ever in the cookie. */
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('refresh_tokens_session_idx').on(table.sessionId)],
);

/** Single-use links sent by mail: account activation and password reset. Purged once used or expired. */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['activation', 'reset'] }).notNull(),
    /**
     * SHA-256 of the token in the last mail sent for this link. Null until its mail goes out: the
     * token is made only then (account-mail.ts), so the mail outbox never holds one.
     */
    tokenHash: text('token_hash').unique(),
    /** Before its mail goes out, the time by which it must; after, when the mailed link expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('link_tokens_user_idx').on(table.userId)],
);

/** Recent attempts that count against a limit (failed logins, reset requests), per key. */
export const throttleEvents = pgTable(
  'throttle_events',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('throttle_events_lookup_idx').on(table.kind, table.key, table.at)],
);

/**
 * The public keys that check access tokens. Without JWT_SECRET each instance signs with a key pair
 * it makes in memory (a new one every hour) and publishes only the public half here: every instance
 * checks any instance's tokens, and nothing in the database (or a backup) signs one.
 */
export const accessTokenKeys = pgTable('access_token_keys', {
  kid: text('kid').primaryKey(),
  /** Ed25519, SPKI in PEM. */
  publicKey: text('public_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
