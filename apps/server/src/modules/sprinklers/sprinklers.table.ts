import { DEFAULT_LOW_PRESSURE_BAR, type GeoJson } from '@pivot/contracts';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  index,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Polish letters with their own place in the alphabet, each right after its base letter ("Łąka"
 * after every "Lz…", before "M"), as the Polish collator sorts them; other accented letters sort
 * as their base letter.
 */
const OWN_PLACE = { ą: 'a{', ć: 'c{', ę: 'e{', ł: 'l{', ń: 'n{', ó: 'o{', ś: 's{', ź: 'z{', ż: 'z|' };
const CAPITALS = 'ĄĆĘŁŃÓŚŹŻÀÁÂÃÄÅÇČĎÈÉÊËĚÌÍÎÏĽĹÑŇÒÔÕÖØŔŘŠŤÙÚÛÜŮÝŽ';
const SMALL_LETTERS = 'ąćęłńóśźżàáâãäåçčďèéêëěìíîïľĺñňòôõöøŕřšťùúûüůýž';
const BASE_LETTERS = 'aaaaaaccdeeeeeiiiillnnooooorrstuuuuuyz';

/**
 * A text in the order people read it, as the browser's collator with \`numeric\` sorts it: case
 * aside, a number by its value ("PIVOT-9" before "PIVOT-10"; each run of digits is padded to
 * ten), Polish letters in their place. Compared byte by byte (\`C\`), so PGlite and PostgreSQL
 * sort alike whatever their locale.
 */
export function readingOrder(text: SQLWrapper): SQL {
  let key = sql`lower(translate(${text}, ${sql.raw(`'${CAPITALS}'`)}, ${sql.raw(`'${SMALL_LETTERS}'`)}))`;
  for (const [letter, place] of Object.entries(OWN_PLACE)) {
    key = sql`replace(${key}, ${sql.raw(`'${letter}'`)}, ${sql.raw(`'${place}'`)})`;
  }
  const accented = SMALL_LETTERS.slice(Object.keys(OWN_PLACE).length);
  key = sql`translate(${key}, ${sql.raw(`'${accented}'`)}, ${sql.raw(`'${BASE_LETTERS}'`)})`;
  const padded = sql`regexp_replace(${key}, '[0-9]+', '0000000000\\&', 'g')`;
  return sql`(regexp_replace(${padded}, '0*([0-9]{10})(?![0-9])', '\\1', 'g') collate "C")`;
}

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
  (table) => [
    uniqueIndex('sprinklers_internal_id_key').on(table.internalId),
    // The machines table's first page, by name, at a dealer's 10,000 machines: 25 rows of this, not a sort of all.
    index('sprinklers_name_order_idx').on(readingOrder(table.name), table.id),
  ],
);
