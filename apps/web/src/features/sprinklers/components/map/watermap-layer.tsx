import type { WatermapResponse } from '@pivot/contracts';
import { useMemo } from 'react';
import { ImageOverlay } from 'react-leaflet';
import { watermapRaster } from './watermap-image';

/** The water applied, one coloured square per grid cell, drawn as one image over the field. */
export function WatermapLayer({ watermap }: { watermap: WatermapResponse }) {
  const image = useMemo(() => {
    const raster = watermapRaster(watermap);
    if (!raster) return null;
    const canvas = document.createElement('canvas');
    canvas.width = raster.width;
    canvas.height = raster.height;
    canvas.getContext('2d')?.putImageData(new ImageData(raster.pixels, raster.width, raster.height), 0, 0);
    return { url: canvas.toDataURL(), bounds: raster.bounds };
  }, [watermap]);
  if (!image) return null;
  return (
    <ImageOverlay url={image.url} bounds={image.bounds} opacity={0.75} interactive={false} className="watermap-image" />
  );
}
