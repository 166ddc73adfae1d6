import type { AppliedCell } from '../watermap';
import { cellCorners } from '../watermap';

/** A machine's as-applied water: its name, its centre and its watered cells. */
export type AsAppliedLayer = { machine: string; centre: { lat: number; lng: number }; cells: AppliedCell[] };

/** A cell as every format writes it: its square and its attributes (AS_APPLIED_FIELDS). */
export type AsAppliedFeature = {
  /** The square's corners as [longitude, latitude], counter-clockwise from the south-west one. */
  corners: [number, number][];
  MACHINE: string;
  DEPTH_MM: number;
  VOL_M3: number;
  START_UTC: string;
  END_UTC: string;
};

/** Depths to 0.01 mm and volumes to the litre: finer than any gauge reads, and the same in every format. */
function rounded(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** An instant as ISO 8601 UTC to the second, 20 characters. */
function utc(ts: number): string {
  return `${new Date(ts).toISOString().slice(0, 19)}Z`;
}

/** The cells of a layer as features, on a grid of `step` metres. */
export function* featuresOf(layer: AsAppliedLayer, step: number): Generator<AsAppliedFeature> {
  const cellArea = step * step;
  for (const cell of layer.cells) {
    yield {
      corners: cellCorners(layer.centre, cell.x, cell.y).map(([lat, lng]): [number, number] => [lng, lat]),
      MACHINE: layer.machine,
      DEPTH_MM: rounded(cell.depthMm, 2),
      VOL_M3: rounded((cell.depthMm / 1000) * cellArea, 3),
      START_UTC: utc(cell.firstTs),
      END_UTC: utc(cell.lastTs),
    };
  }
}
