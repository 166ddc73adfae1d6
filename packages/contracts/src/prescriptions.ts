import { z } from 'zod';
import { ProgramDataSchema } from './programs';

/**
 * A variable-rate prescription made into a program (docs/prescriptions.md): a zipped shapefile of
 * polygons, zipped ISOXML task data or a GeoJSON file, each zone with a rate in a column the user
 * chooses. A pivot can vary its dose only by the angle of its arm, so the program's sectors are
 * runs of angles whose prescribed rate is alike, each at the area-weighted mean of the
 * prescription under it.
 */

/** The largest file read: a 10 m grid of a 2 km machine's circle is about 6 MB as a shapefile. */
export const MAX_PRESCRIPTION_FILE_BYTES = 8 * 1024 * 1024;
/** The most corners read in all: a season's 10 m grid of a 1 km arm has about 160,000. */
export const MAX_PRESCRIPTION_CORNERS = 250_000;
/**
 * The highest rate taken, mm: no pivot applies more than a few tens of millimetres a pass, and a
 * rate above this is nearly always a unit mistake (m³/ha read as mm, tenfold).
 */
export const MAX_PRESCRIPTION_RATE_MM = 200;

/** The units a prescription's rate column may be in: millimetres, or cubic metres per hectare (10 m³/ha = 1 mm). */
export const PRESCRIPTION_UNITS = ['mm', 'm3_per_ha'] as const;
export const PrescriptionUnitSchema = z.enum(PRESCRIPTION_UNITS);
export type PrescriptionUnit = z.infer<typeof PrescriptionUnitSchema>;

/** How far apart two neighbouring degrees' rates may be and still belong to one sector, mm. */
export const PRESCRIPTION_ALIKE_MM = [0.5, 1, 2, 5] as const;

export const PrescriptionRequestSchema = z.strictObject({
  /** The file's name: its ending tells its format (.zip of a shapefile or task data, .geojson, .json). */
  fileName: z.string().trim().min(1).max(255),
  /** The file's bytes, base64. */
  content: z.base64().max(Math.ceil(MAX_PRESCRIPTION_FILE_BYTES / 3) * 4),
  /** The rate column; when not given, the one whose name says rate or dose, else the first numeric one. */
  column: z.string().min(1).max(100).optional(),
  /** The rate column's unit; when not given, m³/ha if the column's name says so, else mm. */
  unit: PrescriptionUnitSchema.optional(),
  alikeMm: z
    .number()
    .refine((value) => (PRESCRIPTION_ALIKE_MM as readonly number[]).includes(value))
    .default(1),
});
export type PrescriptionRequest = z.input<typeof PrescriptionRequestSchema>;

/** One sector of the program made, beside the prescription under it. */
export const PrescriptionSectorSchema = z.strictObject({
  name: z.string(),
  /** Degrees clockwise from north, the sector running clockwise from `fromAngle` to `toAngle`. */
  fromAngle: z.number(),
  toAngle: z.number(),
  /** The sector's rate: the area-weighted mean of the prescription under it, mm. */
  rate: z.number(),
  /** The prescription's lowest and highest rate under the sector, mm. */
  prescribedMin: z.number(),
  prescribedMax: z.number(),
  /** The mean of |sector rate − prescribed rate| over the prescribed part of the sector, mm. */
  meanDifference: z.number(),
  /** The part of the sector's area the prescription covers, 0–1. */
  coveredShare: z.number(),
});
export type PrescriptionSector = z.infer<typeof PrescriptionSectorSchema>;

/**
 * The prescription over the machine's circle as a grid of cells, for the map: `rates` row by row
 * from the north-west corner, mm, null where nothing is prescribed or outside the circle.
 */
export const PrescriptionGridSchema = z.strictObject({
  west: z.number(),
  south: z.number(),
  east: z.number(),
  north: z.number(),
  columns: z.number().int().positive(),
  rows: z.number().int().positive(),
  rates: z.array(z.number().nullable()),
});
export type PrescriptionGrid = z.infer<typeof PrescriptionGridSchema>;

export const PrescriptionPreviewSchema = z.strictObject({
  /** The file's numeric columns, any of which may be the rate. */
  columns: z.array(z.string()),
  column: z.string(),
  unit: PrescriptionUnitSchema,
  alikeMm: z.number(),
  /** How many of the file's polygons have a rate in the column. */
  zoneCount: z.number().int(),
  grid: PrescriptionGridSchema,
  sectors: z.array(PrescriptionSectorSchema),
  /** The sectors as a program's, ready to be saved. */
  programData: ProgramDataSchema,
  /** The water the prescription asks for over the machine's circle, and what the program gives there, m³. */
  prescribedVolume: z.number(),
  programVolume: z.number(),
});
export type PrescriptionPreview = z.infer<typeof PrescriptionPreviewSchema>;
