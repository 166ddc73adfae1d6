import { ACCESS_LEVELS, FARM_ROLES } from '@pivot/contracts';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

/** Which users may see which machines, and whether they may also control them (their level). */
export const sprinklerAccess = pgTable(
  'sprinkler_access',
  {
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    /** watch: sees, changes nothing; control: also moves and reprograms. Grants made before levels keep control. */
    level: text('level', { enum: ACCESS_LEVELS }).notNull().default('control'),
  },
  (table) => [
    primaryKey({ columns: [table.sprinklerId, table.userId] }),
    index('sprinkler_access_user_idx').on(table.userId),
  ],
);

/** A farm: the machines of one holding, and the people who run and use them (docs/roles.md). */
export const farms = pgTable(
  'farms',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Its owners require two-step sign-in of every member (docs/two-factor.md). */
    requireSecondFactor: boolean('require_second_factor').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('farms_name_idx').on(table.name)],
);

/** Who belongs to which farm, in which role; a person may belong to several farms. */
export const farmMembers = pgTable(
  'farm_members',
  {
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: FARM_ROLES }).notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.farmId, table.userId] }), index('farm_members_user_idx').on(table.userId)],
);

/**
 * The farm each machine belongs to: one at most (its key is the machine). A machine the
 * server's administrator has not placed in a farm yet is theirs alone.
 */
export const farmMachines = pgTable(
  'farm_machines',
  {
    sprinklerId: integer('sprinkler_id')
      .primaryKey()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'restrict' }),
  },
  (table) => [index('farm_machines_farm_idx').on(table.farmId)],
);

/** A dealer: an organisation that services farms' machines, with its own members (docs/roles.md). */
export const dealers = pgTable(
  'dealers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('dealers_name_idx').on(table.name)],
);

export const dealerMembers = pgTable(
  'dealer_members',
  {
    dealerId: integer('dealer_id')
      .notNull()
      .references(() => dealers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.dealerId, table.userId] }),
    index('dealer_members_user_idx').on(table.userId),
  ],
);

/**
 * What a farm grants a dealer: watch or control over all its machines or some, until it is
 * revoked or, when given, until `expiresAt`. One grant a farm and dealer.
 */
export const dealerGrants = pgTable(
  'dealer_grants',
  {
    id: serial('id').primaryKey(),
    farmId: integer('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    dealerId: integer('dealer_id')
      .notNull()
      .references(() => dealers.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ACCESS_LEVELS }).notNull(),
    /** False: only the machines in dealer_grant_machines. */
    allMachines: boolean('all_machines').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('dealer_grants_farm_dealer_idx').on(table.farmId, table.dealerId),
    index('dealer_grants_dealer_idx').on(table.dealerId),
  ],
);

export const dealerGrantMachines = pgTable(
  'dealer_grant_machines',
  {
    grantId: integer('grant_id')
      .notNull()
      .references(() => dealerGrants.id, { onDelete: 'cascade' }),
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.grantId, table.sprinklerId] })],
);
