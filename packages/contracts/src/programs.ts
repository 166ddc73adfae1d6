import { z } from 'zod';
import { IdSchema, IdTextSchema } from './common';
import { BboxSchema, PolygonSchema, featureOf } from './geojson';
import { isForbiddenZone } from './forbidden-zone';
import { type LatLng, polygonContains, positionAt } from './geometry';

/** docs/product.md#validation: a missing name or rate is reported as required, a rate of any other type as not numeric. */
const isMissing = (input: unknown) => input === undefined || input === null;

export const SectorPropertiesSchema = z.strictObject({
  name: z
    .string({ error: (issue) => (isMissing(issue.input) ? 'Enter the sector name' : undefined) })
    .trim()
    .min(1, 'Enter the sector name')
    .max(100),
  /** Water dose in mm; a negative rate marks a forbidden zone where the machine must not water. */
  rate: z
    .number({
      error: (issue) => (isMissing(issue.input) ? 'Enter the sector rate' : 'The dose should be a numerical value'),
    })
    .min(-1000)
    .max(1000),
});
export type SectorProperties = z.infer<typeof SectorPropertiesSchema>;

export const SectorSchema = featureOf(PolygonSchema, SectorPropertiesSchema);
export type Sector = z.infer<typeof SectorSchema>;

/** The sectors of a program: a FeatureCollection of named polygons with a rate each. */
export const ProgramDataSchema = z
  .strictObject({
    type: z.literal('FeatureCollection'),
    features: z.array(SectorSchema).max(500),
    bbox: BboxSchema,
  })
  .refine(
    (collection) =>
      new Set(collection.features.map((sector) => sector.properties.name)).size === collection.features.length,
    'Sector names must differ within a program',
  );
export type ProgramData = z.infer<typeof ProgramDataSchema>;

export const ProgramSchema = z.strictObject({
  id: IdSchema,
  name: z.string(),
  programData: ProgramDataSchema,
});
export type Program = z.infer<typeof ProgramSchema>;

export const ProgramBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  programData: ProgramDataSchema,
});
export type ProgramBody = z.infer<typeof ProgramBodySchema>;

export const ProgramParamsSchema = z.strictObject({ id: IdTextSchema, programId: IdTextSchema });

/** The program a machine reports as running: its sectors plus the name it was sent under. */
export const CurrentProgramDataSchema = z.strictObject({
  type: z.literal('FeatureCollection'),
  name: z.string(),
  features: z.array(SectorSchema),
  bbox: BboxSchema,
});
export type CurrentProgramData = z.infer<typeof CurrentProgramDataSchema>;

// In forbidden-zone.ts, which the web app's first paint (the machine's map) reads without zod.
export { isForbiddenZone } from './forbidden-zone';

/** The sector holding the point; where sectors overlap a forbidden zone wins, so no water falls there. */
export function sectorAt(programData: Pick<ProgramData, 'features'>, point: readonly number[]): Sector | null {
  const containing = programData.features.filter((sector) => polygonContains(sector.geometry.coordinates, point));
  return containing.find(isForbiddenZone) ?? containing[0] ?? null;
}

/** Two thirds of the arm: the centroid of the wedge it sweeps, where most of its water lands. */
const SECTOR_PROBE_FRACTION = 2 / 3;

/**
 * The sector under a machine's arm at this angle, by which it waters or not: a sector with a
 * positive rate is watered; a forbidden zone, a zero rate or no sector is crossed dry.
 */
export function sectorUnderArm(
  programData: Pick<ProgramData, 'features'>,
  pivot: { centre: LatLng; armLength: number },
  angle: number,
): Sector | null {
  return sectorAt(programData, positionAt(pivot.centre, angle, pivot.armLength * SECTOR_PROBE_FRACTION));
}
