import { type CropSeason, seasonYear } from '@pivot/contracts';

/** The seasons of one year, in the order the server lists them (emergence, then name). */
export function seasonsOfYear(seasons: readonly CropSeason[], year: number): CropSeason[] {
  return seasons.filter((season) => seasonYear(season) === year);
}

/** The years to offer: those with seasons and the current one, newest first. */
export function seasonYears(seasons: readonly CropSeason[], currentYear: number): number[] {
  return [...new Set([currentYear, ...seasons.map(seasonYear)])].sort((a, b) => b - a);
}

/**
 * The PUT that changes one season of `year`: a PUT replaces every year its body holds (and the
 * year of `?year=`), so the body carries all seasons of the years touched, the viewed one and the
 * changed season's own (an emergence moved into another year), with `replaced` taken out and
 * `next` (none: removed) added last; `index` is where `next` sits, for its problems.
 */
export function replaceSeason(
  seasons: readonly CropSeason[],
  year: number,
  replaced: CropSeason | null,
  next: CropSeason | null,
): { body: CropSeason[]; index: number } {
  const years = new Set([year, ...(next ? [seasonYear(next)] : [])]);
  const body = seasons.filter((season) => season !== replaced && years.has(seasonYear(season)));
  if (next) body.push(next);
  return { body, index: next ? body.length - 1 : -1 };
}
