import type { ProgramData } from '@pivot/contracts';
import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';

/** Irrigation programs stored for a machine; sending one uploads it to the machine. */
export const programs = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    programData: jsonb('program_data').$type<ProgramData>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('programs_sprinkler_name_key').on(table.sprinklerId, table.name)],
);

export type ProgramRow = typeof programs.$inferSelect;
