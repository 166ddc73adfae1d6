import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Each machine controller's broker credentials: its machine ID is its MQTT username, and only a
 * hash of its secret is kept (the secret is 256 random bits, so a fast hash is enough).
 */
export const deviceCredentials = pgTable('device_credentials', {
  machineId: text('machine_id').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  secretCreatedAt: timestamp('secret_created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  lastConnectedAt: timestamp('last_connected_at', { withTimezone: true, precision: 3 }),
  lastAddress: text('last_address'),
  lastRefusedAt: timestamp('last_refused_at', { withTimezone: true, precision: 3 }),
});

export type DeviceRow = typeof deviceCredentials.$inferSelect;
