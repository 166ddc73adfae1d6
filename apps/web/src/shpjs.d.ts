/** shpjs ships no types: the one call the map import uses (a zipped shapefile → GeoJSON in WGS84). */
declare module 'shpjs' {
  /** One FeatureCollection per layer in the zip; an array when it holds several layers. */
  type ShapefileLayer = { type: 'FeatureCollection'; features: unknown[]; fileName?: string };
  export default function shp(zip: ArrayBuffer | ArrayBufferView): Promise<ShapefileLayer | ShapefileLayer[]>;
}
