import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What one scenario measured. Reports: acknowledged to the controller by the broker, and of
 * those, not in the database at the end. Commands: user actions, how many the machine carried
 * out more than once, and how many ended with no outcome recorded (still pending, or not in the
 * activity log). The autopilot's starts: the machine's starts (front carried out) and the programs
 * it carried out. A figure a scenario does not measure is left out.
 */
export type ScenarioFigures = {
  /** Orders the summary: a, b, c… */
  key: string;
  scenario: string;
  reportsAcknowledged?: number;
  reportsLost?: number;
  commands?: number;
  executedTwice?: number;
  withoutOutcome?: number;
  /** The autopilot's starts the machine carried out (`motion: front`). */
  starts?: number;
  /** The programs the machine carried out for them. */
  programs?: number;
  /** What else the reader needs: the bound checked, why a figure is what it is. */
  note?: string;
};

const COLUMNS = [
  ['reports acknowledged', 'reportsAcknowledged'],
  ['lost', 'reportsLost'],
  ['commands', 'commands'],
  ['executed twice', 'executedTwice'],
  ['no recorded outcome', 'withoutOutcome'],
  ['starts', 'starts'],
  ['programs', 'programs'],
] as const;

/** Keeps a scenario's figures for the summary and prints them at once: a failing assertion after this still leaves them. */
export async function recordFigures(figuresDir: string, figures: ScenarioFigures): Promise<void> {
  await mkdir(figuresDir, { recursive: true });
  await writeFile(path.join(figuresDir, `${figures.key}.json`), JSON.stringify(figures));
  process.stdout.write(`chaos ${figureLine(figures)}\n`);
}

export async function readFigures(figuresDir: string): Promise<ScenarioFigures[]> {
  const files = (await readdir(figuresDir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => JSON.parse(await readFile(path.join(figuresDir, file), 'utf8')) as ScenarioFigures),
  );
}

function figureLine(figures: ScenarioFigures): string {
  const measured = COLUMNS.filter(([, field]) => figures[field] !== undefined).map(
    ([label, field]) => `${label} ${figures[field]}`,
  );
  return `${figures.scenario}: ${measured.join(', ')}${figures.note ? ` (${figures.note})` : ''}`;
}

/** The scenarios × figures table printed at the end of the suite; "–" where a scenario does not measure a figure. */
export function summaryTable(all: ScenarioFigures[]): string {
  const header = ['scenario', ...COLUMNS.map(([label]) => label)];
  const rows = all.map((figures) => [
    figures.scenario,
    ...COLUMNS.map(([, field]) => (figures[field] === undefined ? '–' : String(figures[field]))),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join(' | ');
  const notes = all.filter((figures) => figures.note).map((figures) => `  ${figures.key}: ${figures.note}`);
  return [
    'Chaos suite (targets: lost 0, executed twice 0, no recorded outcome 0, starts 1)',
    line(header),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...rows.map(line),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}
