import type { Position, Sector, SprinklerDetail } from '@pivot/contracts';
import { type LatLngBounds, type LatLngExpression, latLng, latLngBounds } from 'leaflet';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, Polygon, Tooltip } from 'react-leaflet';
import { useLocale } from '@/i18n/use-locale';
import { useColorMode } from '@/lib/color-mode';
import { FieldMap } from '@/ui/map/field-map';
import { areaStyle, isForbiddenRate, sectorStyle } from '@/ui/map/sector-style';
import { useRateFormat } from '../hooks/use-rate-format';
import { areaPolygons, positionsOf } from '../lib/program-data';
import { SectorShape } from './sector-shape';

export type SectorMapProps = {
  sprinkler: SprinklerDetail;
  /** The program's other sectors, shown for context and not editable here. */
  otherSectors: readonly Sector[];
  corners: readonly Position[];
  onCornersChange: (corners: Position[]) => void;
  drawing: boolean;
  onDrawn: () => void;
  /** The rate typed so far (null while it is not a number): the shape takes its colour. */
  rate: number | null;
  /** Removal mode: a click or a tap on a corner removes it. */
  removing: boolean;
};

const toLatLngs = (ring: readonly Position[]): LatLngExpression[] => ring.map(([lng, lat]) => [lat, lng]);

/** What the map frames: the field, the program's sectors and the shape; else the machine's surroundings. */
function mapBounds(sprinkler: SprinklerDetail, sectors: readonly Sector[], corners: readonly Position[]): LatLngBounds {
  const positions = [...positionsOf(sprinkler.areaMap), ...positionsOf(sectors), ...corners];
  if (positions.length === 0) return latLng(sprinkler.lat, sprinkler.lng).toBounds(1000);
  return latLngBounds(positions.map(([lng, lat]) => [lat, lng]));
}

/** The machine's field (docs/product.md#screens), the program's other sectors, labelled, and the sector being edited. */
export function SectorMap(props: SectorMapProps) {
  const { sprinkler, otherSectors, corners, onCornersChange, drawing, onDrawn, rate, removing } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const { mode } = useColorMode();
  const formatRate = useRateFormat();
  // The map frames what was there when it opened; it does not jump while a shape is drawn.
  const [bounds] = useState(() => mapBounds(sprinkler, otherSectors, corners));
  const areas = useMemo(() => areaPolygons(sprinkler.areaMap), [sprinkler.areaMap]);
  const editedStyle = useMemo(() => sectorStyle(rate, { mode, emphasis: 'edited' }), [rate, mode]);

  return (
    <FieldMap
      bounds={bounds}
      label={t('programs.sector.mapLabel')}
      // On a touch screen Geoman's corner markers grow to a size a finger can hit (the first one closes the shape).
      className="h-[58vh] max-h-[640px] min-h-72 lg:h-[560px] pointer-coarse:[&_.marker-icon:not(.marker-icon-middle)]:m-[-12px_0_0_-12px]! pointer-coarse:[&_.marker-icon:not(.marker-icon-middle)]:size-6! pointer-coarse:[&_.marker-icon-middle]:m-[-9px_0_0_-9px]! pointer-coarse:[&_.marker-icon-middle]:size-[18px]!"
    >
      {areas.map((area, index) => (
        <Polygon
          // The area map has no identity per polygon but its place.
          key={index}
          positions={area.rings.map(toLatLngs)}
          pathOptions={areaStyle(area.kind, mode)}
          interactive={false}
          // A corner drawn near a crop's edge stays where it was clicked; the other sectors' corners do attract it.
          snapIgnore
        />
      ))}
      {otherSectors.map((sector) => (
        <Polygon
          key={sector.properties.name}
          positions={sector.geometry.coordinates.map(toLatLngs)}
          pathOptions={sectorStyle(sector, { mode, emphasis: 'muted' })}
          interactive={false}
        >
          <Tooltip permanent direction="center" className="px-1.5! py-0.5! text-xs!" opacity={0.9}>
            {t('programs.sector.mapSectorLabel', {
              name: sector.properties.name,
              rate: isForbiddenRate(sector.properties.rate)
                ? t('programs.sectors.forbidden')
                : formatRate(sector.properties.rate),
            })}
          </Tooltip>
        </Polygon>
      ))}
      <CircleMarker
        center={[sprinkler.lat, sprinkler.lng]}
        radius={5}
        pathOptions={{
          color: mode === 'dark' ? '#e9f2ec' : '#0f1f17',
          weight: 2,
          fillOpacity: 1,
          fillColor: '#075985',
        }}
        interactive={false}
      />
      <SectorShape
        corners={corners}
        onCornersChange={onCornersChange}
        drawing={drawing}
        onDrawn={onDrawn}
        style={editedStyle}
        locale={locale}
        removing={removing}
      />
    </FieldMap>
  );
}
