const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A number as people type it: with a decimal point or, as Polish writes it, a comma ("12,5");
 * null for anything else (empty, "1e3", "12 mm").
 */
export function parseDecimal(text: string): number | null {
  const normalised = text.trim().replace(',', '.');
  return DECIMAL.test(normalised) ? Number(normalised) : null;
}
