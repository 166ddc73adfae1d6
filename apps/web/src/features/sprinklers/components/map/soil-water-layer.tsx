import type { WaterBalance } from '@pivot/contracts';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMap, useMapEvents } from 'react-leaflet';
import { useLocale } from '@/i18n/use-locale';
import { textTooltip } from '@/ui/map/text-tooltip';
import { GridImageLayer } from './grid-image-layer';
import { soilWaterCellText } from './soil-water-cell-text';
import { depletionShare, soilWaterColor } from './soil-water-scale';
import { gridRaster } from './watermap-image';

/**
 * The soil water of the last complete day: each cell of the machine's grid coloured by its
 * depletion as a share of its TAW (the water balance's cells), drawn with the watermap's
 * machinery; hovering or tapping a cell tells its depletion and TAW, its last water and the last rain.
 */
export function SoilWaterLayer({ balance }: { balance: WaterBalance }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const map = useMap();
  const tooltip = useRef<L.Tooltip | null>(null);
  const raster = useMemo(
    () =>
      gridRaster(balance.cells, balance.step, ([, , depletion, taw]) => soilWaterColor(depletionShare(depletion, taw))),
    [balance],
  );
  useEffect(
    () => () => {
      tooltip.current?.remove();
    },
    [],
  );

  const show = (event: L.LeafletMouseEvent) => {
    const index = raster?.cellAt(event.latlng.lat, event.latlng.lng) ?? null;
    const cell = index === null ? undefined : balance.cells[index];
    if (!cell) {
      tooltip.current?.remove();
      return;
    }
    const text = soilWaterCellText(t, locale, balance, cell);
    tooltip.current ??= L.tooltip({ direction: 'top', className: 'soil-water-tooltip' });
    tooltip.current.setLatLng(event.latlng).setContent(textTooltip(text));
    if (!map.hasLayer(tooltip.current)) tooltip.current.addTo(map);
  };
  useMapEvents({
    mousemove: show,
    click: show,
    mouseout: () => {
      tooltip.current?.remove();
    },
  });

  return <GridImageLayer raster={raster} className="watermap-image" />;
}
