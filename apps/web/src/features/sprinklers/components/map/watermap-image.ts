import { METRES_PER_DEGREE, type WatermapResponse } from '@pivot/contracts';
import { waterColor } from './watermap-scale';

/** A machine's watermap covers one field; anything larger than this is not drawn as one image. */
const LARGEST_SIDE = 4096;

export type WatermapRaster = {
  width: number;
  height: number;
  /** RGBA, one pixel per grid cell, row by row from the north-west: coloured by the water applied, transparent where none was. */
  pixels: Uint8ClampedArray<ArrayBuffer>;
  /** South-west and north-east corners of the image, as Leaflet bounds. */
  bounds: [[number, number], [number, number]];
};

/**
 * The watermap as an image of one pixel per cell, which the map stretches over the field: a
 * season's thousands of cells are one image, not thousands of shapes to project and draw.
 * Cells are `step` metres apart; over one field, a cell's size in degrees is the same everywhere.
 */
export function watermapRaster({ data, step }: WatermapResponse): WatermapRaster | null {
  if (data.length === 0) return null;
  const lats = data.map(([lat]) => lat);
  const lngs = data.map(([, lng]) => lng);
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const [west, east] = [Math.min(...lngs), Math.max(...lngs)];
  const latStep = step / METRES_PER_DEGREE;
  const lngStep = step / (METRES_PER_DEGREE * Math.cos((((south + north) / 2) * Math.PI) / 180));
  const width = Math.round((east - west) / lngStep) + 1;
  const height = Math.round((north - south) / latStep) + 1;
  if (width > LARGEST_SIDE || height > LARGEST_SIDE) return null;

  const pixels = new Uint8ClampedArray(width * height * 4);
  for (const [lat, lng, mm] of data) {
    const x = Math.round((lng - west) / lngStep);
    const y = Math.round((north - lat) / latStep);
    const colour = Number.parseInt(waterColor(mm).slice(1), 16);
    const offset = (y * width + x) * 4;
    pixels[offset] = colour >> 16;
    pixels[offset + 1] = (colour >> 8) & 0xff;
    pixels[offset + 2] = colour & 0xff;
    pixels[offset + 3] = 255;
  }
  return {
    width,
    height,
    pixels,
    bounds: [
      [south - latStep / 2, west - lngStep / 2],
      [north + latStep / 2, east + lngStep / 2],
    ],
  };
}
