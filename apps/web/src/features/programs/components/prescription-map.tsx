import type { PrescriptionGrid, PrescriptionPreview, Sector } from '@pivot/contracts';
import { type LatLngBounds, type LatLngExpression, latLngBounds } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, ImageOverlay, Polygon, Tooltip, useMap } from 'react-leaflet';
import { type ColorMode, useColorMode } from '@/lib/color-mode';
import { FieldMap } from '@/ui/map/field-map';
import { useRateFormat } from '../hooks/use-rate-format';
import { type PrescriptionScale, prescriptionPixels, prescriptionScale } from '../lib/prescription-scale';
import { PrescriptionLegend } from './prescription-legend';

/** Beyond this many sectors their labels would cover each other and the prescription: each is named on hover. */
const MOST_LABELLED_SECTORS = 12;

/** Dark lines with a light casing (light on dark in the dark mode): readable over every colour of the ramp. */
const OUTLINE: Record<ColorMode, { line: string; casing: string }> = {
  light: { line: '#0f1f17', casing: '#ffffff' },
  dark: { line: '#e9f2ec', casing: '#0f1f17' },
};

const toLatLngs = (ring: readonly (readonly number[])[]): LatLngExpression[] => ring.map(([lng, lat]) => [lat!, lng!]);

/**
 * The prescription over the machine's circle, coloured by its rate, with the sectors of the
 * program made from it outlined over it and labelled with their rate: where a sector's one rate
 * stands for a prescription that varies under it shows at a glance.
 */
export function PrescriptionMap({ preview, pivot }: { preview: PrescriptionPreview; pivot: [number, number] }) {
  const { t } = useTranslation();
  const { mode } = useColorMode();
  const { grid } = preview;
  const { south, west, north, east } = grid;
  const bounds = useMemo(() => latLngBounds([south, west], [north, east]), [south, west, north, east]);
  const scale = useMemo(() => prescriptionScale(grid.rates), [grid.rates]);
  const sectors = preview.programData.features;

  return (
    <div className="flex flex-col gap-2">
      <FieldMap bounds={bounds} label={t('programs.prescription.mapLabel')} className="h-64 sm:h-80">
        <FitWhenShown bounds={bounds} />
        {scale && <PrescriptionGridLayer grid={grid} bounds={bounds} scale={scale} />}
        {sectors.map((sector) => (
          <SectorOutline
            key={sector.properties.name}
            sector={sector}
            mode={mode}
            labelled={sectors.length <= MOST_LABELLED_SECTORS}
          />
        ))}
        <CircleMarker
          center={pivot}
          radius={4}
          pathOptions={{ color: OUTLINE[mode].casing, weight: 2, fillOpacity: 1, fillColor: OUTLINE[mode].line }}
          interactive={false}
        />
      </FieldMap>
      {scale && <PrescriptionLegend min={scale.min} max={scale.max} outline={OUTLINE[mode]} />}
    </div>
  );
}

/**
 * The map is made before its dialog opens (the dialog shows itself in an effect, after its
 * children are in place), so it first measures nothing: once shown, it measures itself again and
 * frames the circle.
 */
function FitWhenShown({ bounds }: { bounds: LatLngBounds }) {
  const map = useMap();
  useEffect(() => {
    map.invalidateSize();
    map.fitBounds(bounds, { padding: [16, 16] });
  }, [map, bounds]);
  return null;
}

/** The grid as one image of a pixel a cell, stretched over its bounds: some 10,000 cells drawn at once. */
function PrescriptionGridLayer({
  grid,
  bounds,
  scale,
}: {
  grid: PrescriptionGrid;
  bounds: LatLngBounds;
  scale: PrescriptionScale;
}) {
  const url = useMemo(() => {
    const canvas = document.createElement('canvas');
    canvas.width = grid.columns;
    canvas.height = grid.rows;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.putImageData(new ImageData(prescriptionPixels(grid, scale), grid.columns, grid.rows), 0, 0);
    return canvas.toDataURL();
  }, [grid, scale]);
  if (!url) return null;
  return (
    <ImageOverlay
      url={url}
      bounds={bounds}
      opacity={0.85}
      interactive={false}
      // Stretched, each cell stays a crisp square rather than a blur across its neighbours.
      className="[image-rendering:pixelated]"
    />
  );
}

function SectorOutline({ sector, mode, labelled }: { sector: Sector; mode: ColorMode; labelled: boolean }) {
  const { t } = useTranslation();
  const formatRate = useRateFormat();
  const positions = sector.geometry.coordinates.map(toLatLngs);
  const { line, casing } = OUTLINE[mode];
  const rate = formatRate(sector.properties.rate);
  return (
    <>
      <Polygon
        positions={positions}
        pathOptions={{ color: casing, weight: 5, opacity: 0.85, fill: false }}
        interactive={false}
      />
      <Polygon positions={positions} pathOptions={{ color: line, weight: 2, fill: true, fillOpacity: 0 }}>
        {labelled ? (
          <Tooltip permanent direction="center" className="px-1.5! py-0.5! text-xs! font-semibold!" opacity={0.92}>
            {rate}
          </Tooltip>
        ) : (
          <Tooltip sticky>{t('programs.sector.mapSectorLabel', { name: sector.properties.name, rate })}</Tooltip>
        )}
      </Polygon>
    </>
  );
}
