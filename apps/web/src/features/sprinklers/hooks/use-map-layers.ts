import { useState } from 'react';
import { INITIALLY_SHOWN, type MapLayer } from '../components/map/map-layers';
import type { HistoryRange } from './use-history-range';

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
