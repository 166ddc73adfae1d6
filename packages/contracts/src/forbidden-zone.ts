import type { Sector } from './programs';

/*
 * No schema here (nor zod): the web app's machine map reads it before zod is fetched. Exported
 * through programs.ts.
 */

/** Forbidden zones are the sectors with a negative rate. */
export function isForbiddenZone(sector: Sector): boolean {
  return sector.properties.rate < 0;
}
