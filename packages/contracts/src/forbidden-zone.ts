/*
 * No schema here (nor zod): the web app's machine map reads it before zod is fetched. Exported
 * through programs.ts.
 */

/** Forbidden zones are the sectors with a negative rate (a program's `Sector`, named by its shape: programs.ts imports this). */
export function isForbiddenZone(sector: { properties: { rate: number } }): boolean {
  return sector.properties.rate < 0;
}
