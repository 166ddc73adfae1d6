import type {
  CurrentProgramData,
  ProgramData,
  SprinklerDetail,
  WaterBalance,
  WatermapResponse,
} from '@pivot/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { HistoryRange } from '../hooks/use-history-range';
import type { MapLayers } from '../hooks/use-map-layers';
import { MachineMap } from './map/machine-map';
import { MapLayerToggles } from './map-layer-toggles';
import { useSoilWaterCode } from './use-soil-water-code';
import { WatermapControls } from './watermap-controls';

/** The map of the machine's field with its layer switches and the irrigation history's dates. */
export function MachineFieldView({
  sprinkler,
  program,
  history,
  layers: { shown, toggle },
  watermap,
  soilWater,
}: {
  sprinkler: SprinklerDetail;
  program: ProgramData | CurrentProgramData | null;
  history: HistoryRange;
  layers: MapLayers;
  /** Asked for by the page beside the detail, not after it. */
  watermap: UseQueryResult<WatermapResponse | false>;
  /**
   * The water balance of the last complete day (the advice feature's), for the Soil water layer:
   * undefined while it is being read (once the layer is shown), null when there is none.
   */
  soilWater: WaterBalance | null | undefined;
}) {
  // The Soil water layer starts hidden: its code comes when it is first shown.
  const soilWaterCode = useSoilWaterCode(shown.has('soilWater'));

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
