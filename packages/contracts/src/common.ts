import { z } from 'zod';

/** The largest id the database holds (a PostgreSQL integer); a larger one names nothing. */
export const MAX_ID = 2_147_483_647;

/** Database ids: positive integers in bodies and answers. */
export const IdSchema = z.number().int().positive().max(MAX_ID);
export type Id = z.infer<typeof IdSchema>;

/** An id written in a path or a query string: plain decimal digits only. */
export const IdTextSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'Expected an id such as 42')
  .transform(Number)
  .pipe(IdSchema);

/** The answer of a 204: no body, which the server sends as null and the web client reads as null. */
export const NoContentSchema = z.null();

export const IdParamsSchema = z.strictObject({ id: IdTextSchema });

export const LanguageSchema = z.enum(['pl', 'en']);
export type Language = z.infer<typeof LanguageSchema>;

/** A decimal number written as a string, such as "123.45" or "-7". */
export const NUMERIC_STRING_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * Numbers that the API sends as numeric strings (docs/product.md#entities: lat and lng).
 * Decoding gives a number; encoding writes the number back as a string.
 */
export const NumericStringSchema = z.codec(
  z.string().regex(NUMERIC_STRING_PATTERN, 'Expected a number such as 123.45'),
  z.number(),
  { decode: (text) => Number(text), encode: (value) => toDecimalString(value) },
);

/** Writes a number without exponent notation ("0.0000001", not "1e-7") so that it matches the pattern. */
function toDecimalString(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', fraction = '', exponentText = ''] = match;
  const digits = lead + fraction;
  const exponent = Number(exponentText);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits.padEnd(exponent + 1, '0')}`;
}

export const SortOrderSchema = z.enum(['asc', 'desc']);

const MAX_PAGE_SIZE = 100;

/** Paging shared by every list call: 1-based page, bounded page size. */
export const PagingQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
});
export type PagingQuery = z.infer<typeof PagingQuerySchema>;

/** A list answer: the number of rows that match and the rows of the page asked for. */
export function listResponseOf<Item extends z.ZodType>(item: Item) {
  return z.strictObject({ count: z.number().int().nonnegative(), data: z.array(item) });
}

/** Calendar date as YYYY-MM-DD. */
export const IsoDateSchema = z.iso.date();

/** A date as written in the watermap query: dd.mm.yyyy. */
export const DottedDateSchema = z
  .string()
  .regex(/^\d{2}\.\d{2}\.\d{4}$/, 'Expected a date as dd.mm.yyyy')
  .refine((text) => parseDottedDate(text) !== null, 'Not a calendar date');

/** Parses dd.mm.yyyy into a UTC midnight Date, or null when it is not a real day. */
export function parseDottedDate(text: string): Date | null {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!match) return null;
  const [, day, month, year] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isSameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isSameDay ? date : null;
}

/** dd.mm.yyyy (the API's dates) of a yyyy-mm-dd date (the database's and the server's). */
export function dottedOfIsoDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

/** yyyy-mm-dd of a dd.mm.yyyy date. */
export function isoOfDottedDate(dottedDate: string): string {
  const [day, month, year] = dottedDate.split('.');
  return `${year}-${month}-${day}`;
}
