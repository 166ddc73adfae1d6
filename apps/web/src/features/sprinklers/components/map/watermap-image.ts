import { METRES_PER_DEGREE, type WatermapResponse } from '@pivot/contracts';
import { waterColor } from './watermap-scale';

/** A machine's grid covers one field; anything larger than this is not drawn as one image. */
const LARGEST_SIDE = 4096;

/** A cell of a machine's grid as the server serves it: its centre's latitude and longitude first. */
export type GridCell = readonly [number, number, ...(number | null)[]];

export type WatermapRaster = {
  width: number;
  height: number;
  /** RGBA, one pixel per grid cell, row by row from the north-west: coloured by the cell's value, transparent where none is. */
  pixels: Uint8ClampedArray<ArrayBuffer>;
  /** South-west and north-east corners of the image, as Leaflet bounds. */
  bounds: [[number, number], [number, number]];
  /** The index (in the cells drawn) of the cell under a point, or null where none is. */
  cellAt: (lat: number, lng: number) => number | null;
};

/**
 * Cells of a machine's grid as an image of one pixel per cell, which the map stretches over the
 * field: a season's thousands of cells are one image, not thousands of shapes to project and
 * draw. Cells are `step` metres apart; over one field, a cell's size in degrees is the same
 * everywhere. `colorOf` gives each cell's colour ('#rrggbb').
 */
export function gridRaster<Cell extends GridCell>(
  cells: readonly Cell[],
  step: number,
  colorOf: (cell: Cell) => string,
): WatermapRaster | null {
  if (cells.length === 0) return null;
  const lats = cells.map(([lat]) => lat);
  const lngs = cells.map(([, lng]) => lng);
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const [west, east] = [Math.min(...lngs), Math.max(...lngs)];
  const latStep = step / METRES_PER_DEGREE;
  const lngStep = step / (METRES_PER_DEGREE * Math.cos((((south + north) / 2) * Math.PI) / 180));
  const width = Math.round((east - west) / lngStep) + 1;
  const height = Math.round((north - south) / latStep) + 1;
  if (width > LARGEST_SIDE || height > LARGEST_SIDE) return null;

  const pixels = new Uint8ClampedArray(width * height * 4);
  // Each pixel's cell, 1-based (0: none), for finding the cell under the pointer.
  const owners = new Int32Array(width * height);
  cells.forEach((cell, index) => {
    const [lat, lng] = cell;
    const x = Math.round((lng - west) / lngStep);
    const y = Math.round((north - lat) / latStep);
    const colour = Number.parseInt(colorOf(cell).slice(1), 16);
    const offset = (y * width + x) * 4;
    pixels[offset] = colour >> 16;
    pixels[offset + 1] = (colour >> 8) & 0xff;
    pixels[offset + 2] = colour & 0xff;
    pixels[offset + 3] = 255;
    owners[y * width + x] = index + 1;
  });
  return {
    width,
    height,
    pixels,
    bounds: [
      [south - latStep / 2, west - lngStep / 2],
      [north + latStep / 2, east + lngStep / 2],
    ],
    cellAt: (lat, lng) => {
      const x = Math.round((lng - west) / lngStep);
      const y = Math.round((north - lat) / latStep);
      if (x < 0 || y < 0 || x >= width || y >= height) return null;
      const owner = owners[y * width + x]!;
      return owner === 0 ? null : owner - 1;
    },
  };
}

/** The watermap, each cell coloured by the water applied, transparent where none was. */
export function watermapRaster({ data, step }: WatermapResponse): WatermapRaster | null {
  return gridRaster(data, step, ([, , mm]) => waterColor(mm ?? 0));
}
