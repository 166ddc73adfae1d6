/** shpjs ships no types: the tests read exported shapefiles back with it, an independent reader. */
declare module 'shpjs' {
  type Layer = { type: 'FeatureCollection'; features: unknown[]; fileName?: string };
  export default function shp(zip: ArrayBuffer | ArrayBufferView): Promise<Layer | Layer[]>;
}
