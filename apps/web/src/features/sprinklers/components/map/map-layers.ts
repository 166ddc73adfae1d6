/** The layers of the machine map a user can show or hide (docs/product.md#screens), in the order they are listed. */
export const MAP_LAYERS = ['sectors', 'forbidden', 'crops', 'history', 'soilWater', 'weather', 'soil', 'arm'] as const;
export type MapLayer = (typeof MAP_LAYERS)[number];

/**
 * The irrigation history asks the server for a watermap, so it starts hidden (its dates live in the
 * address); the soil water covers the field as the history does, so it starts hidden too.
 */
export const INITIALLY_SHOWN: ReadonlySet<MapLayer> = new Set([
  'sectors',
  'forbidden',
  'crops',
  'weather',
  'soil',
  'arm',
]);
