import { FIELD_FORMAT, formatDate, parseDate } from '@/ui/date-picker/dates';

const ISO_FORMAT = 'YYYY-MM-DD';

/** 'YYYY-MM-DD' (as the API has dates) → 'DD.MM.YYYY' (as forms show them); '' for none. */
export function isoToFieldDate(iso: string | null): string {
  const date = iso ? parseDate(iso, ISO_FORMAT) : null;
  return date ? formatDate(date, FIELD_FORMAT) : '';
}

/** 'DD.MM.YYYY' → 'YYYY-MM-DD'; null for an empty field, undefined for text that is not a day. */
export function fieldDateToIso(text: string): string | null | undefined {
  if (text.trim() === '') return null;
  const date = parseDate(text, FIELD_FORMAT);
  return date ? formatDate(date, ISO_FORMAT) : undefined;
}
