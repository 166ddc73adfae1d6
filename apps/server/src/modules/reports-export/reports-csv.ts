import { REPORTS_CSV_COLUMNS } from '@pivot/contracts';
import type { TelemetryRow } from '../telemetry';

/** The first characters a spreadsheet reads as the start of a formula (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A text cell of the CSV: text from a machine that a spreadsheet would take for a formula is
 * prefixed with ', and a cell holding a quote, comma or line break is quoted (RFC 4180).
 */
export function csvText(text: string): string {
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/**
 * A number cell: JavaScript's shortest text that reads back as the same double, with a decimal
 * point whatever the server's locale; -0 keeps its sign.
 */
export function csvNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

export const CSV_HEADER = `${REPORTS_CSV_COLUMNS.join(',')}\r\n`;

/** A report as one CSV record, its time in ISO 8601 UTC. */
export function csvRecord(report: TelemetryRow): string {
  return [
    new Date(report.ts).toISOString(),
    csvText(report.status),
    csvNumber(report.angle),
    csvNumber(report.distance),
    csvNumber(report.speed),
    csvNumber(report.pressure),
    csvNumber(report.flow),
  ].join(',');
}
