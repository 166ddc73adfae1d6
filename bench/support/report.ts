/** A benchmark's target: figures are compared with it and printed beside it, never asserted. */
export type Target = { atLeast: number } | { atMost: number } | { below: number };

const LABEL_WIDTH = 34;
const VALUE_WIDTH = 22;

/** A figure's label in its column, with a space after it even when it is longer than the column. */
function labelColumn(label: string): string {
  return `${label.padEnd(LABEL_WIDTH - 1)} `;
}

function write(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function formatNumber(value: number, decimals = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function isMet(value: number, target: Target): boolean {
  if ('atLeast' in target) return value >= target.atLeast;
  if ('atMost' in target) return value <= target.atMost;
  return value < target.below;
}

function describeTarget(target: Target, unit: string, decimals: number): string {
  const [sign, bound] =
    'atLeast' in target ? ['≥', target.atLeast] : 'atMost' in target ? ['≤', target.atMost] : ['<', target.below];
  return `${sign} ${formatNumber(bound, decimals)} ${unit}`.trimEnd();
}

export function printTitle(title: string, settings: Record<string, string>): void {
  write('');
  write(title);
  for (const [name, value] of Object.entries(settings)) write(`  ${`${name}:`.padEnd(12)}${value}`);
  write('');
}

/** A measured figure without a target of its own, for context. */
export function printFigure(label: string, text: string): void {
  write(`  ${labelColumn(label)}${text}`);
}

/** A figure with its target beside it and whether it meets it; missed targets are written in capitals. */
export function printTargeted(label: string, value: number, unit: string, target: Target, decimals = 0): boolean {
  const met = isMet(value, target);
  printVerdict(
    label,
    `${formatNumber(value, decimals)} ${unit}`.trimEnd(),
    describeTarget(target, unit, decimals),
    met,
  );
  return met;
}

/**
 * A figure that is not a plain number (a check, or "none at all"), with its target described in
 * words and whether it meets it, laid out like printTargeted.
 */
export function printVerdict(label: string, figure: string, target: string, met: boolean): boolean {
  write(`  ${labelColumn(label)}${figure.padEnd(VALUE_WIDTH)}target ${target}: ${met ? 'met' : 'MISSED'}`);
  return met;
}

/** A heading for the figures that follow, after a blank line, in a benchmark that prints several groups. */
export function printSection(title: string): void {
  write('');
  write(`  ${title}`);
}

export function printNote(text: string): void {
  write(`  ${text}`);
}
