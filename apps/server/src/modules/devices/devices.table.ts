import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Each machine controller's broker credentials: its machine ID is its MQTT username. A hash of its
 * secret checks a login (the secret is 256 random bits, so a fast hash is enough); the secret
 * sealed under DEVICE_SECRET_KEY gives a broker that lost its accounts each one back (null for a
 * controller registered before sealing, until the server sees its secret again).
 */
export const deviceCredentials = pgTable('device_credentials', {
  machineId: text('machine_id').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  secretSealed: text('secret_sealed'),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  secretCreatedAt: timestamp('secret_created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  lastConnectedAt: timestamp('last_connected_at', { withTimezone: true, precision: 3 }),
  lastAddress: text('last_address'),
  lastRefusedAt: timestamp('last_refused_at', { withTimezone: true, precision: 3 }),
});

export type DeviceRow = typeof deviceCredentials.$inferSelect;
