import type {
  CurrentProgramData,
  ProgramData,
  SprinklerDetail,
  WaterBalance,
  WatermapResponse,
} from '@pivot/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { HistoryRange } from '../hooks/use-history-range';
import { MapLayerToggles } from './map-layer-toggles';
import { MachineMap } from './map/machine-map';
import { INITIALLY_SHOWN, type MapLayer } from './map/map-layers';
import { useSoilWaterCode } from './use-soil-water-code';
import { WatermapControls } from './watermap-controls';

/** The map of the machine's field with its layer switches and the irrigation history's dates. */
export function MachineFieldView({
  sprinkler,
  program,
  history,
  watermap,
  soilWater = null,
}: {
  sprinkler: SprinklerDetail;
  program: ProgramData | CurrentProgramData | null;
  history: HistoryRange;
  /** Asked for by the page beside the detail, not after it. */
  watermap: UseQueryResult<WatermapResponse | false>;
  /** The water balance of the last complete day (the advice feature's), for the Soil water layer. */
  soilWater?: WaterBalance | null;
}) {
  const [layers, setLayers] = useState<ReadonlySet<MapLayer>>(INITIALLY_SHOWN);
  const shown: ReadonlySet<MapLayer> = history.range ? new Set([...layers, 'history']) : layers;
  // The Soil water layer starts hidden: its code comes when it is first shown.
  const soilWaterCode = useSoilWaterCode(shown.has('soilWater'));

  const toggle = (layer: MapLayer) => {
    if (layer === 'history') {
      history.toggle();
      return;
    }
    const next = new Set(layers);
    if (!next.delete(layer)) next.add(layer);
    setLayers(next);
  };

  return (
    <div className="flex flex-col gap-3">
      <MapLayerToggles shown={shown} onToggle={toggle} />
      {history.range && (
        <WatermapControls
          range={history.range}
          onRangeChange={history.show}
          watermap={watermap.data || null}
          loading={watermap.isFetching}
        />
      )}
      {shown.has('soilWater') && soilWaterCode && <soilWaterCode.SoilWaterLegend balance={soilWater} />}
      <MachineMap
        sprinkler={sprinkler}
        program={program}
        watermap={(history.range && watermap.data) || null}
        soilWater={soilWater}
        SoilWaterLayer={soilWaterCode?.SoilWaterLayer}
        shown={shown}
      />
    </div>
  );
}
