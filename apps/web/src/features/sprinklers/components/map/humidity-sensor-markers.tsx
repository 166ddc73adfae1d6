import type { HumiditySensor } from '@pivot/contracts';
import { CircleMarker, Tooltip } from 'react-leaflet';
import { useTranslation } from 'react-i18next';

/** Drier soil shows warmer: brown when dry, green in between, blue when wet. */
function moistureColor(percent: number): string {
  if (percent < 15) return '#b45309';
  if (percent < 30) return '#65a30d';
  return '#0284c7';
}

/** Each soil-humidity probe with its moisture (and depth, when it says). */
export function HumiditySensorMarkers({ sensors }: { sensors: readonly HumiditySensor[] }) {
  const { t } = useTranslation();
  return sensors.map(([lat, lng, moisture, depth]) => (
    <CircleMarker
      key={`${lat},${lng},${depth ?? ''}`}
      center={[lat, lng]}
      radius={7}
      pathOptions={{ color: '#ffffff', weight: 2, fillColor: moistureColor(moisture), fillOpacity: 1 }}
    >
      <Tooltip>
        {depth === undefined
          ? t('sprinklers.map.soilMoisture', { moisture: Math.round(moisture) })
          : t('sprinklers.map.soilMoistureAtDepth', { moisture: Math.round(moisture), depth })}
      </Tooltip>
    </CircleMarker>
  ));
}
