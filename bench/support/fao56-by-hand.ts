/**
 * FAO-56 (1998) chapter 8's arithmetic written out again, apart from the server's code, for the
 * advice's hand check (bench/advice-hand-check.ts): the check must not agree with the server only
 * because it runs the same functions. Each rule is the one docs/advice.md documents; the
 * equation numbers are the 1998 edition's.
 */

/** Table 12's Kc (ini, mid, end), the crop's height (m), Table 11's stages (days), Table 22's Zr min–max (m) and p. */
export type TableCrop = {
  kc: [number, number, number];
  height: number | null;
  stages: [number, number, number, number];
  rootDepth: [number, number];
  p: number;
  /** Table 22's p is adjusted for the day's ETc (a table crop's); a custom crop's p is taken as given. */
  adjustP: boolean;
};

/** docs/advice.md, "The crops (FAO-56 1998)": copied from the document, not from the server's table. */
export const HAND_CROPS: Record<string, TableCrop> = {
  'maize-grain': {
    kc: [0.3, 1.2, 0.6],
    height: 2,
    stages: [30, 40, 50, 50],
    rootDepth: [0.15, 1],
    p: 0.55,
    adjustP: true,
  },
  potato: {
    kc: [0.5, 1.15, 0.75],
    height: 0.6,
    stages: [30, 35, 50, 30],
    rootDepth: [0.15, 0.4],
    p: 0.35,
    adjustP: true,
  },
  'spring-wheat': {
    kc: [0.3, 1.15, 0.25],
    height: 1,
    stages: [20, 25, 60, 30],
    rootDepth: [0.15, 1],
    p: 0.55,
    adjustP: true,
  },
  'winter-wheat': {
    kc: [0.4, 1.15, 0.25],
    height: 1,
    stages: [160, 75, 75, 25],
    rootDepth: [0.15, 1.5],
    p: 0.55,
    adjustP: true,
  },
  'sugar-beet': {
    kc: [0.35, 1.2, 0.7],
    height: 0.5,
    stages: [50, 40, 50, 40],
    rootDepth: [0.15, 0.7],
    p: 0.55,
    adjustP: true,
  },
  'alfalfa-hay': {
    kc: [0.4, 0.95, 0.9],
    height: 0.7,
    stages: [10, 30, 140, 10],
    rootDepth: [1, 1],
    p: 0.55,
    adjustP: true,
  },
  soybean: {
    kc: [0.4, 1.15, 0.5],
    height: 0.75,
    stages: [20, 35, 60, 25],
    rootDepth: [0.15, 0.6],
    p: 0.5,
    adjustP: true,
  },
};

/** docs/advice.md, "The soils (FAO-56 1998 Table 19)": the default θFC and θWP of each texture. */
export const HAND_SOILS: Record<string, { fieldCapacity: number; wiltingPoint: number }> = {
  sand: { fieldCapacity: 0.12, wiltingPoint: 0.045 },
  'loamy-sand': { fieldCapacity: 0.15, wiltingPoint: 0.065 },
  'sandy-loam': { fieldCapacity: 0.23, wiltingPoint: 0.11 },
  loam: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
  'silt-loam': { fieldCapacity: 0.29, wiltingPoint: 0.15 },
  silt: { fieldCapacity: 0.32, wiltingPoint: 0.17 },
  'silty-clay-loam': { fieldCapacity: 0.335, wiltingPoint: 0.205 },
  'silty-clay': { fieldCapacity: 0.36, wiltingPoint: 0.23 },
  clay: { fieldCapacity: 0.36, wiltingPoint: 0.22 },
};

export type Stage = 'initial' | 'development' | 'midSeason' | 'lateSeason';

/** The stage of season day `day` (1: emergence); past the last day, the late season's end holds. */
export function stageOf(stages: TableCrop['stages'], day: number): Stage {
  const [initial, development, midSeason] = stages;
  if (day <= initial) return 'initial';
  if (day <= initial + development) return 'development';
  if (day <= initial + development + midSeason) return 'midSeason';
  return 'lateSeason';
}

/** Eq. 66: Kc ini, a line to Kc mid, Kc mid, a line to Kc end; Kc end after the last day. */
export function kcOnDay(kc: [number, number, number], stages: TableCrop['stages'], day: number): number {
  const [initial, development, midSeason, lateSeason] = stages;
  const [kcIni, kcMid, kcEnd] = kc;
  if (day <= initial) return kcIni;
  if (day <= initial + development) return kcIni + ((day - initial) / development) * (kcMid - kcIni);
  if (day <= initial + development + midSeason) return kcMid;
  const intoLate = Math.min(day - initial - development - midSeason, lateSeason);
  return kcMid + (intoLate / lateSeason) * (kcEnd - kcMid);
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/**
 * Eq. 62 (Kc mid) and 65 (Kc end): `Kc + [0.04 (u2 − 2) − 0.004 (RHmin − 45)] (h / 3)^0.3`, the
 * means held to 1–6 m/s and 20–80 %, the height to 0.1–10 m.
 */
export function climateAdjusted(kc: number, meanWind: number, meanMinHumidity: number, height: number): number {
  const wind = clamp(meanWind, 1, 6);
  const humidity = clamp(meanMinHumidity, 20, 80);
  const h = clamp(height, 0.1, 10);
  return kc + (0.04 * (wind - 2) - 0.004 * (humidity - 45)) * (h / 3) ** 0.3;
}

/** Annex 8, Eq. 8-3: Zr min on day 1, a line to Zr max at the end of the development stage. */
export function rootDepthOnDay(crop: Pick<TableCrop, 'rootDepth' | 'stages'>, day: number): number {
  const [zrMin, zrMax] = crop.rootDepth;
  const endOfDevelopment = crop.stages[0] + crop.stages[1];
  if (day >= endOfDevelopment) return zrMax;
  return zrMin + ((day - 1) / (endOfDevelopment - 1)) * (zrMax - zrMin);
}

/** Eq. 82: TAW = 1000 (θFC − θWP) Zr, mm. */
export function totalAvailableWater(fieldCapacity: number, wiltingPoint: number, rootDepth: number): number {
  return 1000 * (fieldCapacity - wiltingPoint) * rootDepth;
}

/** Table 22's footnote 2: p + 0.04 (5 − ETc), held to 0.1–0.8. */
export function pAdjusted(p: number, etc: number): number {
  return clamp(p + 0.04 * (5 - etc), 0.1, 0.8);
}

/** Eq. 84: Ks 1 while Dr ≤ RAW, then (TAW − Dr) / (TAW − RAW), 0 at TAW. */
export function waterStress(depletion: number, taw: number, raw: number): number {
  if (depletion <= raw) return 1;
  if (taw <= raw) return 0;
  return Math.max(0, (taw - depletion) / (taw - raw));
}

/** docs/advice.md: the day's rain counts whole, or not at all when it is under 0.2 ET0. */
export function effectiveRain(rain: number, et0: number): number {
  return rain < 0.2 * et0 ? 0 : rain;
}

/**
 * One day of the balance (Eq. 85, 86, 88) with the day's water early in the day, as docs/advice.md
 * has it: the water refills first (what it cannot hold percolates), then the crop takes
 * Ks(Dr,start) · ETc, at most what is left above the wilting point.
 */
export function balanceDay(
  previous: number,
  rain: number,
  netIrrigation: number,
  etc: number,
  taw: number,
  raw: number,
): { start: number; ks: number; depletion: number; deepPercolation: number } {
  const start = Math.max(previous - rain - netIrrigation, 0);
  const deepPercolation = Math.max(rain + netIrrigation - previous, 0);
  const ks = waterStress(start, taw, raw);
  const depletion = start + Math.min(ks * etc, Math.max(taw - start, 0));
  return { start, ks, depletion, deepPercolation };
}

/** Eq. 87: a probe's depletion, 1000 (θFC − θ) Zr, held to 0 … TAW. */
export function probeDepletion(fieldCapacity: number, moisture: number, rootDepth: number, taw: number): number {
  return clamp(1000 * (fieldCapacity - moisture) * rootDepth, 0, taw);
}

/** docs/advice.md, "One pass's depth": a pass gives at most 25 mm net. */
export const PASS_NET_LIMIT_MM = 25;

/** The net and gross dose of a depletion, and the percent timer that applies it at `depthAtFull` mm per pass at 100 %. */
export function doseOf(
  depletion: number,
  efficiency: number,
  depthAtFull: number | null,
): { net: number; gross: number; rest: number; timer: number | null } {
  const net = Math.min(depletion, PASS_NET_LIMIT_MM);
  const gross = net / efficiency;
  const timer = depthAtFull === null || gross <= 0 ? null : Math.min(100, (100 * depthAtFull) / gross);
  return { net, gross, rest: depletion - net, timer };
}
