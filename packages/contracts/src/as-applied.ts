import { type WatermapQuery, WatermapQuerySchema } from './watermap';

/**
 * The days of a machine's as-applied map to export: dd.mm.yyyy, both included, local calendar
 * days of the server's time zone, as the watermap's; at most a year.
 */
export const AsAppliedQuerySchema = WatermapQuerySchema;
export type AsAppliedQuery = WatermapQuery;

/**
 * Each cell's attributes, named alike in every format so a GIS style made for one fits the
 * other: at most 10 characters, as a shapefile's dBASE table allows.
 * - MACHINE: the machine's name;
 * - DEPTH_MM: the water on the cell, mm (its volume spread over the whole cell);
 * - VOL_M3: that water's volume, m³;
 * - START_UTC, END_UTC: when the first and the last water of the range fell on it, ISO 8601 UTC.
 */
export const AS_APPLIED_FIELDS = ['MACHINE', 'DEPTH_MM', 'VOL_M3', 'START_UTC', 'END_UTC'] as const;

/** The formats the as-applied map is exported in, and their files' endings. */
export const AS_APPLIED_FORMATS = { geojson: 'geojson', shapefile: 'zip', isoxml: 'taskdata.zip' } as const;
export type AsAppliedFormat = keyof typeof AS_APPLIED_FORMATS;
