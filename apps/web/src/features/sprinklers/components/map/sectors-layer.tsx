import type { Sector } from '@pivot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GeoJSON } from 'react-leaflet';
import type { ColorMode } from '@/lib/color-mode';
import { toLeafletGeoJson } from '@/ui/map/leaflet-geojson';
import { sectorStyle } from '@/ui/map/sector-style';
import { textTooltip } from '@/ui/map/text-tooltip';

/** Sectors of a program, each named with its dose on hover or tap. */
export function SectorsLayer({ sectors, mode }: { sectors: readonly Sector[]; mode: ColorMode }) {
  const { t } = useTranslation();
  const sectorsKey = useMemo(() => JSON.stringify(sectors), [sectors]);
  return (
    <GeoJSON
      // react-leaflet draws a GeoJSON layer's data once: new sectors need a new layer.
      key={`${mode}-${sectorsKey}`}
      data={toLeafletGeoJson({ type: 'FeatureCollection', features: sectors })}
      style={(feature) => sectorStyle(feature as Sector, { mode })}
      onEachFeature={(feature, layer) => {
        const { name, rate } = (feature as Sector).properties;
        layer.bindTooltip(textTooltip(t('sprinklers.map.sectorTooltip', { name, rate })), { sticky: true });
      }}
    />
  );
}
