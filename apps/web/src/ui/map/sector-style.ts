import type { Sector } from '@pivot/contracts';
import type { PathOptions } from 'leaflet';

/**
 * How sectors look on every map: blue by dose (more water, deeper blue), grey for a zero rate
 * (no water), and forbidden zones (a negative rate: the machine must not water there) in red
 * with a dashed outline, so they stand apart even for a reader who cannot tell red from blue.
 * Each colour has a light and a dark variant: strokes stay readable over the light field colour
 * and over the dimmed tiles and dark field colour of the dark mode, with or without tiles.
 */
type Swatch = { light: string; dark: string };
/** The page's colour mode, which picks a swatch's variant. */
type ColorMode = keyof Swatch;

export type DoseClass = {
  /** The class holds rates up to this many mm (inclusive); the last one has no bound. */
  upTo: number;
  stroke: Swatch;
  fill: Swatch;
};

export const DOSE_CLASSES: readonly DoseClass[] = [
  { upTo: 5, stroke: { light: '#0e7490', dark: '#67e8f9' }, fill: { light: '#22d3ee', dark: '#22d3ee' } },
  { upTo: 10, stroke: { light: '#0369a1', dark: '#7dd3fc' }, fill: { light: '#38bdf8', dark: '#38bdf8' } },
  { upTo: 20, stroke: { light: '#1d4ed8', dark: '#93c5fd' }, fill: { light: '#3b82f6', dark: '#60a5fa' } },
  {
    upTo: Number.POSITIVE_INFINITY,
    stroke: { light: '#3730a3', dark: '#c4b5fd' },
    fill: { light: '#6366f1', dark: '#a78bfa' },
  },
];

const NO_WATER: Pick<DoseClass, 'stroke' | 'fill'> = {
  stroke: { light: '#44403c', dark: '#d6d3d1' },
  fill: { light: '#a8a29e', dark: '#a8a29e' },
};
const FORBIDDEN: Pick<DoseClass, 'stroke' | 'fill'> = {
  stroke: { light: '#b91c1c', dark: '#fca5a5' },
  fill: { light: '#ef4444', dark: '#f87171' },
};
/** A sector whose rate is not known yet (a form being filled in). */
const UNKNOWN: Pick<DoseClass, 'stroke' | 'fill'> = {
  stroke: { light: '#7c2d12', dark: '#fdba74' },
  fill: { light: '#fb923c', dark: '#fb923c' },
};

/** A negative rate marks a forbidden zone (docs/product.md#entities: the machine must not water there). */
export function isForbiddenRate(rate: number): boolean {
  return rate < 0;
}

function classOf(rate: number | null): Pick<DoseClass, 'stroke' | 'fill'> {
  if (rate === null || !Number.isFinite(rate)) return UNKNOWN;
  if (isForbiddenRate(rate)) return FORBIDDEN;
  if (rate === 0) return NO_WATER;
  return DOSE_CLASSES.find((dose) => rate <= dose.upTo) ?? DOSE_CLASSES[DOSE_CLASSES.length - 1]!;
}

/** The outline colour of a sector with this rate: for a legend or a swatch beside its name. */
export function sectorColor(rate: number | null, mode: ColorMode = currentMode()): string {
  return classOf(rate).stroke[mode];
}

export type SectorEmphasis =
  /** A sector shown for context (the other sectors around the one being edited). */
  | 'muted'
  /** The sectors of the program a screen is about. */
  | 'normal'
  /** The sector being drawn or edited. */
  | 'edited';

export type SectorStyleOptions = {
  /** Light or dark; by default the mode the page shows now (pass it to restyle on a change). */
  mode?: ColorMode;
  emphasis?: SectorEmphasis;
};

function currentMode(): ColorMode {
  return typeof document !== 'undefined' && document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

const WEIGHT: Record<SectorEmphasis, number> = { muted: 1.5, normal: 2, edited: 3 };
const FILL_OPACITY: Record<SectorEmphasis, number> = { muted: 0.18, normal: 0.3, edited: 0.4 };

/** Leaflet path options for a sector, or for a sector with this rate (null: not known yet). */
export function sectorStyle(
  sector: Sector | number | null,
  { mode = currentMode(), emphasis = 'normal' }: SectorStyleOptions = {},
): PathOptions {
  const rate = typeof sector === 'object' && sector !== null ? sector.properties.rate : sector;
  const colours = classOf(rate);
  const forbidden = rate !== null && isForbiddenRate(rate);
  return {
    color: colours.stroke[mode],
    weight: WEIGHT[emphasis] + (forbidden ? 0.5 : 0),
    opacity: emphasis === 'muted' ? 0.8 : 1,
    fillColor: colours.fill[mode],
    fillOpacity: FILL_OPACITY[emphasis],
    dashArray: forbidden ? '8 6' : undefined,
    lineJoin: 'round',
  };
}

/** The machine's field (its boundary) and the crops inside it, under the sectors. */
export function areaStyle(kind: unknown, mode: ColorMode = currentMode()): PathOptions {
  if (kind === 'field') {
    return {
      color: mode === 'dark' ? '#bef264' : '#3f6212',
      weight: 2,
      opacity: 0.9,
      fillColor: mode === 'dark' ? '#84cc16' : '#65a30d',
      fillOpacity: 0.06,
      dashArray: '2 6',
      lineCap: 'round',
    };
  }
  return {
    color: mode === 'dark' ? '#a3e635' : '#4d7c0f',
    weight: 1,
    opacity: 0.6,
    fillColor: mode === 'dark' ? '#a3e635' : '#84cc16',
    fillOpacity: 0.12,
  };
}
