import { sql } from 'drizzle-orm';
import { boolean, date, index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    company: text('company'),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    phone: text('phone'),
    admin: boolean('admin').notNull().default(false),
    language: text('language', { enum: ['pl', 'en'] })
      .notNull()
      .default('pl'),
    /** argon2id; null until the user sets a password from the activation mail. */
    passwordHash: text('password_hash'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    subscriptionExpiryDate: date('subscription_expiry_date', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    index('users_admin_idx')
      .on(table.admin)
      .where(sql`${table.admin}`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
