import type { Sector } from '@pivot/contracts';
import { memo, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GeoJSON } from 'react-leaflet';
import type { ColorMode } from '@/lib/color-mode';
import { toLeafletGeoJson } from '@/ui/map/leaflet-geojson';
import { sectorStyle } from '@/ui/map/sector-style';
import { textTooltip } from '@/ui/map/text-tooltip';

/**
 * Sectors of a program, each named with its dose on hover or tap. Not drawn again for a report of
 * the machine (its page renders once a second): react-leaflet restyles every path of a layer
 * given a new style function.
 */
export const SectorsLayer = memo(function SectorsLayer({
  sectors,
  mode,
}: {
  sectors: readonly Sector[];
  mode: ColorMode;
}) {
  const { t } = useTranslation();
  const sectorsKey = useMemo(() => JSON.stringify(sectors), [sectors]);
  const style = useCallback((feature?: GeoJSON.Feature) => sectorStyle(feature as Sector, { mode }), [mode]);
  return (
    <GeoJSON
      // react-leaflet draws a GeoJSON layer's data once: new sectors need a new layer.
      key={`${mode}-${sectorsKey}`}
      data={toLeafletGeoJson({ type: 'FeatureCollection', features: sectors })}
      style={style}
      onEachFeature={(feature, layer) => {
        const { name, rate } = (feature as Sector).properties;
        layer.bindTooltip(textTooltip(t('sprinklers.map.sectorTooltip', { name, rate })), { sticky: true });
      }}
    />
  );
});
