import type { CurrentProgramData, ProgramData, SprinklerDetail, WatermapResponse } from '@pivot/contracts';
import { isForbiddenZone } from '@pivot/contracts';
import { type LatLngBoundsExpression, geoJSON, latLng } from 'leaflet';
import { useTranslation } from 'react-i18next';
import { GeoJSON } from 'react-leaflet';
import { useColorMode } from '@/lib/color-mode';
import { FieldMap } from '@/ui/map/field-map';
import { areaStyle } from '@/ui/map/sector-style';
import { toLeafletGeoJson } from '@/ui/map/leaflet-geojson';
import { ArmLine } from './arm-line';
import { HumiditySensorMarkers } from './humidity-sensor-markers';
import type { MapLayer } from './map-layers';
import { SectorsLayer } from './sectors-layer';
import { WatermapLayer } from './watermap-layer';
import { WeatherStationMarkers } from './weather-station-markers';

export type MachineMapProps = {
  sprinkler: SprinklerDetail;
  /** The sectors drawn: the selected stored program, or the one the machine runs. */
  program: ProgramData | CurrentProgramData | null;
  watermap: WatermapResponse | null;
  shown: ReadonlySet<MapLayer>;
};

type AreaFeature = { properties?: { kind?: unknown; name?: unknown } | null };

const kindOf = (feature: AreaFeature | undefined) => feature?.properties?.kind;

/** The field and its crops as the administrator drew them (areaMap): the frame of the map. */
function fieldBounds(sprinkler: SprinklerDetail): LatLngBoundsExpression {
  const area = geoJSON(toLeafletGeoJson(sprinkler.areaMap));
  const bounds = area.getLayers().length > 0 ? area.getBounds() : null;
  if (bounds?.isValid()) return bounds;
  return latLng(sprinkler.lat, sprinkler.lng).toBounds(2 * (sprinkler.distance ?? 500));
}

/** The machine's field with the layers the user chose (spec §2), the arm moving live on it. */
export function MachineMap({ sprinkler, program, watermap, shown }: MachineMapProps) {
  const { t } = useTranslation();
  const { mode } = useColorMode();
  const sectors = program?.features ?? [];

  return (
    <FieldMap bounds={fieldBounds(sprinkler)} label={t('sprinklers.map.label')} className="h-[420px] sm:h-[520px]">
      <GeoJSON
        key={`field-${mode}-${JSON.stringify(sprinkler.areaMap)}`}
        data={toLeafletGeoJson(sprinkler.areaMap)}
        filter={(feature) => kindOf(feature) !== 'crop'}
        style={(feature) => areaStyle(kindOf(feature), mode)}
        interactive={false}
      />
      {shown.has('crops') && (
        <GeoJSON
          key={`crops-${mode}-${JSON.stringify(sprinkler.areaMap)}`}
          data={toLeafletGeoJson(sprinkler.areaMap)}
          filter={(feature) => kindOf(feature) === 'crop'}
          style={() => areaStyle('crop', mode)}
          onEachFeature={(feature: AreaFeature, layer) => {
            if (typeof feature.properties?.name === 'string') layer.bindTooltip(feature.properties.name);
          }}
        />
      )}
      {shown.has('history') && watermap && <WatermapLayer watermap={watermap} />}
      {shown.has('sectors') && (
        <SectorsLayer sectors={sectors.filter((sector) => !isForbiddenZone(sector))} mode={mode} />
      )}
      {shown.has('forbidden') && <SectorsLayer sectors={sectors.filter(isForbiddenZone)} mode={mode} />}
      {shown.has('soil') && <HumiditySensorMarkers sensors={sprinkler.humidity_sensors} />}
      {shown.has('weather') && <WeatherStationMarkers stations={sprinkler.weather_stations} />}
      {shown.has('arm') && <ArmLine sprinkler={sprinkler} />}
    </FieldMap>
  );
}
