import { type WatermapQuery, WatermapQuerySchema } from './watermap';

/**
 * The days of a machine's reports to download as CSV: dd.mm.yyyy, both included, local calendar
 * days of the server's time zone, as the watermap's.
 */
export const ReportsCsvQuerySchema = WatermapQuerySchema;
export type ReportsCsvQuery = WatermapQuery;

/** The CSV's columns, in order: the protocol's telemetry fields the server stores. */
export const REPORTS_CSV_COLUMNS = ['ts', 'status', 'angle', 'distance', 'speed', 'pressure', 'flow'] as const;
