import type { CropChoice, SoilChoice } from '@pivot/contracts';
import { date, doublePrecision, integer, jsonb, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';

/**
 * A machine's crop seasons: what grows on one crop area of its map (or the whole circle), from
 * which day, on which soil. A season is identified by its machine, its year (the emergence's)
 * and its area; seasons of past years stay, so their water balance can still be read.
 */
export const cropSeasons = pgTable(
  'crop_seasons',
  {
    id: serial('id').primaryKey(),
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The crop area's name on the machine's map as it was when the season was set; null for the whole circle. */
    polygon: text('polygon'),
    /** A key of the crop table or a custom crop's values, as the API gives them. */
    crop: jsonb('crop').$type<CropChoice>().notNull(),
    emergence: date('emergence', { mode: 'string' }).notNull(),
    /** The emergence's year, kept apart so that a season's identity can be unique. */
    year: integer('year').notNull(),
    /** A key of the soil table or the soil's own water contents. */
    soil: jsonb('soil').$type<SoilChoice>().notNull(),
    /** Null: Table 22's p adjusted for ETc (a custom crop's own p). */
    depletionFraction: doublePrecision('depletion_fraction'),
    /** Null: the default application efficiency. */
    efficiency: doublePrecision('efficiency'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One season per area and year; the whole circle (null) counts as one area too.
    unique('crop_seasons_area_year_key').on(table.sprinklerId, table.year, table.polygon).nullsNotDistinct(),
  ],
);

export type CropSeasonRow = typeof cropSeasons.$inferSelect;
export type NewCropSeasonRow = typeof cropSeasons.$inferInsert;
