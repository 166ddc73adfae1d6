import type { WatermapResponse } from '@pivot/contracts';
import { useMemo } from 'react';
import { GridImageLayer } from './grid-image-layer';
import { watermapRaster } from './watermap-image';

/** The water applied, one coloured square per grid cell, drawn as one image over the field. */
export function WatermapLayer({ watermap }: { watermap: WatermapResponse }) {
  const raster = useMemo(() => watermapRaster(watermap), [watermap]);
  return <GridImageLayer raster={raster} className="watermap-image" />;
}
