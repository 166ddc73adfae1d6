import { useState } from 'react';
import type { HistoryRange } from '@/features/sprinklers/hooks/use-history-range';

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

/** The layers shown on a machine's map and the switch of each. */
export type MapLayers = { shown: ReadonlySet<MapLayer>; toggle: (layer: MapLayer) => void };

/**
 * The map's shown layers, the irrigation history's from the page's address. The machine page
 * holds them, so that what a layer reads is asked for only while it is shown (the Soil water
 * layer's water balance).
 */
export function useMapLayers(history: HistoryRange): MapLayers {
  const [layers, setLayers] = useState<ReadonlySet<MapLayer>>(INITIALLY_SHOWN);
  const shown: ReadonlySet<MapLayer> = history.range ? new Set([...layers, 'history']) : layers;
  const toggle = (layer: MapLayer) => {
    if (layer === 'history') {
      history.toggle();
      return;
    }
    const next = new Set(layers);
    if (!next.delete(layer)) next.add(layer);
    setLayers(next);
  };
  return { shown, toggle };
}
