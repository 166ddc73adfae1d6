import type { SprinklerDetail } from '@pivot/contracts';

/**
 * What each of the machine's reports changes in its detail while it moves. None of the cards
 * below the map shows them (the programs' import check reads the arm's length, which a report
 * does not change), so a report, every second, does not draw them again: only the map and the
 * status panel follow it.
 */
const REPORT_VALUES: ReadonlySet<string> = new Set<keyof SprinklerDetail>([
  'angle',
  'speed',
  'pressure',
  'flow',
  'reportedAt',
  'currentPosition',
]);

function alikeBesideReports(before: SprinklerDetail, after: SprinklerDetail): boolean {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof SprinklerDetail>;
  return [...names].every((name) => REPORT_VALUES.has(name) || Object.is(before[name], after[name]));
}

/** A card's props alike but for the machine's report values: the card is not drawn again. */
export function sameCardProps<Props extends object>(before: Props, after: Props): boolean {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof Props>;
  return [...names].every((name) =>
    name === 'sprinkler'
      ? alikeBesideReports(before[name] as SprinklerDetail, after[name] as SprinklerDetail)
      : Object.is(before[name], after[name]),
  );
}
