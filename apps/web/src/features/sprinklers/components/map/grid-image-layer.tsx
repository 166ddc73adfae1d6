import { useMemo } from 'react';
import { ImageOverlay } from 'react-leaflet';
import type { WatermapRaster } from './watermap-image';

/** A grid's raster (gridRaster) drawn as one image over the field. */
export function GridImageLayer({ raster, className }: { raster: WatermapRaster | null; className: string }) {
  const url = useMemo(() => {
    if (!raster) return null;
    const canvas = document.createElement('canvas');
    canvas.width = raster.width;
    canvas.height = raster.height;
    canvas.getContext('2d')?.putImageData(new ImageData(raster.pixels, raster.width, raster.height), 0, 0);
    return canvas.toDataURL();
  }, [raster]);
  if (!raster || !url) return null;
  return <ImageOverlay url={url} bounds={raster.bounds} opacity={0.75} interactive={false} className={className} />;
}
