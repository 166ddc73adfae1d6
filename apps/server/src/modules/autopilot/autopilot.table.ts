import type { AutopilotMode, AutopilotRules } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

/**
 * A machine's autopilot (docs/autopilot.md, "The modes and where they are set"): its mode and the
 * farm's rules for it. Without a row the machine's autopilot is off, with the rules' defaults.
 */
export const autopilotSettings = pgTable(
  'autopilot_settings',
  {
    sprinklerId: integer('sprinkler_id')
      .primaryKey()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    mode: text('mode').$type<AutopilotMode>().notNull(),
    /** The rules as `AutopilotRulesSchema` parsed them (defaults filled). */
    rules: jsonb('rules').$type<AutopilotRules>().notNull(),
    /**
     * What the autopilot's watcher keeps of a machine between two of its looks (a rain skip, its
     * own pause, …): the watcher's own shape, read and written only through the repository's
     * readMemory / saveMemory.
     */
    memory: jsonb('memory').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** Who last set the mode or the rules, or whose command took the machine over; null once that account is deleted. */
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [check('autopilot_settings_mode_check', sql`${table.mode} in ('off', 'suggest', 'auto')`)],
);

export type AutopilotSettingsRow = typeof autopilotSettings.$inferSelect;
