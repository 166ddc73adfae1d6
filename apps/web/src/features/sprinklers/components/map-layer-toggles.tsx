import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { MAP_LAYERS, type MapLayer } from './map/map-layers';

export type MapLayerTogglesProps = {
  shown: ReadonlySet<MapLayer>;
  onToggle: (layer: MapLayer) => void;
};

/** A checkbox per map layer: each can be shown or hidden (docs/product.md#screens). */
export const MapLayerToggles = memo(function MapLayerToggles({ shown, onToggle }: MapLayerTogglesProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="-mx-1 flex min-w-0 gap-2 overflow-x-auto px-1 pb-1 sm:flex-wrap sm:overflow-visible">
      <legend className="sr-only">{t('sprinklers.map.layersLegend')}</legend>
      {MAP_LAYERS.map((layer) => (
        <label
          key={layer}
          className="inline-flex h-9 shrink-0 cursor-pointer items-center gap-2 rounded-full border border-line bg-surface px-3 text-sm font-medium has-checked:border-water has-checked:bg-water-soft has-focus-visible:outline-2 has-focus-visible:outline-focus"
        >
          <input
            type="checkbox"
            checked={shown.has(layer)}
            onChange={() => onToggle(layer)}
            className="size-4 accent-water"
          />
          {t(`sprinklers.map.layers.${layer}`)}
        </label>
      ))}
    </fieldset>
  );
});
