import { type Position, type Sector, SectorPropertiesSchema } from '@pivot/contracts';
import { MIN_CORNERS, type ShapeError } from './shape-validity';
import { parseDecimal } from '@/lib/decimal';
import { numberFormat } from '@/i18n/number-format';

/**
 * The sector form's rules (docs/product.md#validation), checked with the contract's own schema so that the form
 * and the server agree; the contract's English messages become the keys of their translations.
 */
export type SectorFieldError =
  'nameRequired' | 'nameTooLong' | 'nameTaken' | 'rateRequired' | 'rateNumeric' | 'rateRange';

export type SectorFormValues = { name: string; rate: string };

export type SectorFormErrors = { name?: SectorFieldError; rate?: SectorFieldError; shape?: ShapeError };

const CONTRACT_MESSAGES: Record<string, SectorFieldError> = {
  'Enter the sector name': 'nameRequired',
  'Enter the sector rate': 'rateRequired',
  'The dose should be a numerical value': 'rateNumeric',
};

/**
 * What the rate field holds, as the schema should see it: nothing (required), a number (with a
 * decimal point or a comma, as Polish writes it), or the text itself (not numeric).
 */
export function rateValue(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return parseDecimal(trimmed) ?? trimmed;
}

/**
 * A stored rate as the field shows it, written as the user's language writes numbers: "12,5" in
 * Polish (which the field reads back), "12.5" in English; never grouped ("1000", not "1 000").
 */
export function rateText(rate: number, locale: string): string {
  return numberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 }).format(rate);
}

/** The rate typed so far as a number, or null while it is not one. */
export function rateNumber(text: string): number | null {
  const value = rateValue(text);
  return typeof value === 'number' ? value : null;
}

export function validateSector(
  values: SectorFormValues,
  corners: number,
  otherNames: readonly string[],
): SectorFormErrors {
  const errors: SectorFormErrors = {};
  const name = SectorPropertiesSchema.shape.name.safeParse(values.name);
  if (!name.success) errors.name = CONTRACT_MESSAGES[name.error.issues[0]?.message ?? ''] ?? 'nameTooLong';
  else if (otherNames.includes(name.data)) errors.name = 'nameTaken';
  const typed = rateValue(values.rate);
  const rate = SectorPropertiesSchema.shape.rate.safeParse(typed);
  // The contract words every problem of a typed number as "not numeric": a number too far out is out of range.
  if (!rate.success) {
    errors.rate =
      typeof typed === 'number'
        ? 'rateRange'
        : (CONTRACT_MESSAGES[rate.error.issues[0]?.message ?? ''] ?? 'rateNumeric');
  }
  if (corners < MIN_CORNERS) errors.shape = 'shapeRequired';
  return errors;
}

export const hasErrors = (errors: SectorFormErrors) => Object.values(errors).some(Boolean);

/** The sector the form describes: its outer ring closed, the holes it had kept as they were. */
export function sectorOf(values: SectorFormValues, corners: readonly Position[], holes: readonly Position[][]): Sector {
  const ring = [...corners.map((corner): Position => [corner[0], corner[1]]), [corners[0]![0], corners[0]![1]]];
  return {
    type: 'Feature',
    properties: SectorPropertiesSchema.parse({ name: values.name, rate: rateValue(values.rate) }),
    geometry: { type: 'Polygon', coordinates: [ring as Position[], ...holes] },
  };
}

/** A sector's outer ring as its corners: the closing position (equal to the first) left out. */
export function cornersOf(sector: Sector | undefined): Position[] {
  const ring = sector?.geometry.coordinates[0] ?? [];
  return ring.slice(0, -1).map((position): Position => [position[0], position[1]]);
}

/** Coordinates kept to 7 decimals (about a centimetre): more is noise from the pointer. */
export function roundedPosition(longitude: number, latitude: number): Position {
  const round = (value: number) => Math.round(value * 1e7) / 1e7;
  return [round(longitude), round(latitude)];
}
