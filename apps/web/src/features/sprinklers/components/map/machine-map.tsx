import type {
  CurrentProgramData,
  ProgramData,
  SprinklerDetail,
  WaterBalance,
  WatermapResponse,
} from '@pivot/contracts';
import { isForbiddenZone } from '@pivot/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GeoJSON } from 'react-leaflet';
import { useColorMode } from '@/lib/color-mode';
import { FieldMap } from '@/ui/map/field-map';
import { areaStyle } from '@/ui/map/sector-style';
import { textTooltip } from '@/ui/map/text-tooltip';
import { toLeafletGeoJson } from '@/ui/map/leaflet-geojson';
import { ArmLine } from './arm-line';
import { firstViewBounds } from './first-view';
import { HumiditySensorMarkers } from './humidity-sensor-markers';
import type { MapLayer } from './map-layers';
import { SectorsLayer } from './sectors-layer';
import type { SoilWaterLayer as SoilWaterLayerComponent } from './soil-water-layer';
import { WatermapLayer } from './watermap-layer';
import { WeatherStationMarkers } from './weather-station-markers';

export type MachineMapProps = {
  sprinkler: SprinklerDetail;
  /** The sectors drawn: the selected stored program, or the one the machine runs. */
  program: ProgramData | CurrentProgramData | null;
  watermap: WatermapResponse | null;
  /** The water balance of the last complete day, for the Soil water layer; null without one. */
  soilWater?: WaterBalance | null;
  /** The Soil water layer's cells, once their code has come (the layer starts hidden: ../use-soil-water-code.ts). */
  SoilWaterLayer?: typeof SoilWaterLayerComponent;
  shown: ReadonlySet<MapLayer>;
};

type AreaFeature = { properties?: { kind?: unknown; name?: unknown } | null };

const kindOf = (feature: AreaFeature | undefined) => feature?.properties?.kind;

/** The machine's field with the layers the user chose (docs/product.md#screens), the arm moving live on it. */
export function MachineMap({ sprinkler, program, watermap, soilWater = null, SoilWaterLayer, shown }: MachineMapProps) {
  const { t } = useTranslation();
  const { mode } = useColorMode();
  // The page renders again on every report of the machine (about once a second): what does
  // not change with a report is worked out once.
  const { areaMap, lat, lng, weather_stations: stations, humidity_sensors: sensors } = sprinkler;
  const bounds = useMemo(
    () => firstViewBounds({ areaMap, lat, lng, weather_stations: stations, humidity_sensors: sensors }),
    [areaMap, lat, lng, stations, sensors],
  );
  const areaKey = useMemo(() => JSON.stringify(areaMap), [areaMap]);
  // react-leaflet restyles every path of a layer given a new style function: one per colour mode.
  const fieldStyle = useCallback((feature?: AreaFeature) => areaStyle(kindOf(feature), mode), [mode]);
  const cropStyle = useCallback(() => areaStyle('crop', mode), [mode]);
  const [watered, forbidden] = useMemo(() => {
    const sectors = program?.features ?? [];
    return [sectors.filter((sector) => !isForbiddenZone(sector)), sectors.filter(isForbiddenZone)];
  }, [program]);

  return (
    <FieldMap bounds={bounds} label={t('sprinklers.map.label')} className="h-[420px] sm:h-[520px]">
      <GeoJSON
        key={`field-${mode}-${areaKey}`}
        data={toLeafletGeoJson(areaMap)}
        filter={(feature) => kindOf(feature) !== 'crop'}
        style={fieldStyle}
        interactive={false}
      />
      {shown.has('crops') && (
        <GeoJSON
          key={`crops-${mode}-${areaKey}`}
          data={toLeafletGeoJson(areaMap)}
          filter={(feature) => kindOf(feature) === 'crop'}
          style={cropStyle}
          onEachFeature={(feature: AreaFeature, layer) => {
            if (typeof feature.properties?.name === 'string') layer.bindTooltip(textTooltip(feature.properties.name));
          }}
        />
      )}
      {shown.has('history') && watermap && <WatermapLayer watermap={watermap} />}
      {shown.has('soilWater') && soilWater && SoilWaterLayer && <SoilWaterLayer balance={soilWater} />}
      {shown.has('sectors') && <SectorsLayer sectors={watered} mode={mode} />}
      {shown.has('forbidden') && <SectorsLayer sectors={forbidden} mode={mode} />}
      {shown.has('soil') && <HumiditySensorMarkers sensors={sprinkler.humidity_sensors} />}
      {shown.has('weather') && <WeatherStationMarkers stations={sprinkler.weather_stations} />}
      {shown.has('arm') && <ArmLine sprinkler={sprinkler} />}
    </FieldMap>
  );
}
