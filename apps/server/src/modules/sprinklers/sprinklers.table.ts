import { DEFAULT_LOW_PRESSURE_BAR, type GeoJson } from '@pivot/contracts';
import {
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const EMPTY_AREA_MAP: GeoJson = { type: 'FeatureCollection', features: [] };

export const sprinklers = pgTable(
  'sprinklers',
  {
    id: serial('id').primaryKey(),
    /** The machine's ID on the message broker. */
    internalId: text('internal_id').notNull(),
    name: text('name').notNull(),
    lat: numeric('lat', { precision: 9, scale: 6 }).notNull(),
    lng: numeric('lng', { precision: 9, scale: 6 }).notNull(),
    /** Metres from the pivot centre to the last tower, as the machine reported it. */
    armLength: doublePrecision('arm_length').notNull().default(0),
    /** Pressure below this while the machine moves is an incident (docs/alerts.md), bar. */
    lowPressureBar: doublePrecision('low_pressure_bar').notNull().default(DEFAULT_LOW_PRESSURE_BAR),
    /** The field boundary and crop areas (GeoJSON), drawn by an administrator. */
    areaMap: jsonb('area_map').$type<GeoJson>().notNull().default(EMPTY_AREA_MAP),
    model: text('model'),
    firmware: text('firmware'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Counts the changes to what a machine's detail shows besides its live state: this row, its
     * programs, its grants and the granted users' names and addresses. Database triggers raise it
     * in the transaction of each such change (migration 0010), whichever server instance makes it,
     * so a cached detail is valid only for the revision it was built at.
     */
    revision: integer('revision').notNull().default(0),
  },
  (table) => [uniqueIndex('sprinklers_internal_id_key').on(table.internalId)],
);
