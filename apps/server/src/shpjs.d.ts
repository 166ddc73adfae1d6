/**
 * shpjs ships no types. The server reads prescriptions' shapes with its parseShp (the zip is
 * unpacked and checked first, prescription-file.ts); the tests read exported shapefiles back
 * with the whole of it, an independent reader.
 */
declare module 'shpjs' {
  type Layer = { type: 'FeatureCollection'; features: unknown[]; fileName?: string };
  export default function shp(zip: ArrayBuffer | ArrayBufferView): Promise<Layer | Layer[]>;
  /** The shapes of a .shp, converted to WGS 84 by the .prj's text when given. */
  export function parseShp(shp: ArrayBufferView, prj?: string): unknown[];
}
