import { useCallback, useMemo, useState } from 'react';
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
  const historyShown = history.range !== null;
  const { toggle: toggleHistory } = history;
  // The same set and switch from one report of the machine to the next: the switches are not drawn again.
  const shown = useMemo<ReadonlySet<MapLayer>>(
    () => (historyShown ? new Set([...layers, 'history']) : layers),
    [layers, historyShown],
  );
  const toggle = useCallback(
    (layer: MapLayer) => {
      if (layer === 'history') {
        toggleHistory();
        return;
      }
      const next = new Set(layers);
      if (!next.delete(layer)) next.add(layer);
      setLayers(next);
    },
    [layers, toggleHistory],
  );
  return useMemo(() => ({ shown, toggle }), [shown, toggle]);
}
