import type { GrowthStageKey, WaterBalanceSeasonArea } from '@pivot/contracts';

/**
 * The season chart's geometry (components/season-chart.tsx), apart from React so that it can be
 * checked alone: where each day, each millimetre of depletion and each bar of water is drawn.
 */

/** Room for the stage band above, the axis labels left and the dates below, px. */
export const CHART_MARGIN = { left: 46, right: 8, top: 22, bottom: 20 } as const;
export const DEPLETION_HEIGHT = 170;
export const WATER_HEIGHT = 44;
const GAP = 10;
/** The least room a date label along the axis takes, px. */
const TICK_ROOM = 52;

export type StageRun = { from: number; to: number; stage: GrowthStageKey | null; kcFrom: number; kcTo: number };

export type SeasonChartGeometry = {
  width: number;
  height: number;
  days: number;
  dayWidth: number;
  /** The middle of a day's slot. */
  x: (index: number) => number;
  depletionTop: number;
  depletionBottom: number;
  waterTop: number;
  waterBottom: number;
  depletionMax: number;
  waterMax: number;
  yDepletion: (mm: number) => number;
  yWater: (mm: number) => number;
  depletionTicks: number[];
  /** Days whose date is written along the axis. */
  dateTicks: number[];
  /** SVG paths: the measured depletion, the foreseen one (from the last measured day on), TAW and RAW. */
  measured: string;
  forecast: string;
  taw: string;
  raw: string;
  stages: StageRun[];
};

function niceStep(range: number, steps: number): number {
  const rough = range / steps;
  const power = 10 ** Math.floor(Math.log10(rough));
  const scaled = rough / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function line(values: readonly number[], x: (index: number) => number, y: (mm: number) => number, from = 0): string {
  let path = '';
  for (let index = from; index < values.length; index += 1) {
    path += `${index === from ? 'M' : 'L'}${x(index).toFixed(1)} ${y(values[index]!).toFixed(1)}`;
  }
  return path;
}

/** The runs of days in one growth stage, with Kc at their first and last day. */
export function stageRuns(area: WaterBalanceSeasonArea): StageRun[] {
  const runs: StageRun[] = [];
  area.stage.forEach((stage, index) => {
    const last = runs.at(-1);
    if (last && last.stage === stage) {
      last.to = index;
      last.kcTo = area.kc[index]!;
    } else runs.push({ from: index, to: index, stage, kcFrom: area.kc[index]!, kcTo: area.kc[index]! });
  });
  return runs;
}

export function seasonChartGeometry(area: WaterBalanceSeasonArea, width: number): SeasonChartGeometry {
  const days = area.depletion.length;
  const plotWidth = Math.max(1, width - CHART_MARGIN.left - CHART_MARGIN.right);
  const dayWidth = plotWidth / Math.max(1, days);
  const x = (index: number) => CHART_MARGIN.left + (index + 0.5) * dayWidth;
  const depletionTop = CHART_MARGIN.top;
  const depletionBottom = depletionTop + DEPLETION_HEIGHT;
  const waterTop = depletionBottom + GAP;
  const waterBottom = waterTop + WATER_HEIGHT;
  const highest = Math.max(1, ...area.taw, ...area.depletion);
  const step = niceStep(highest, 4);
  const depletionMax = Math.ceil(highest / step) * step;
  const waterMax = Math.max(1, ...area.rain, ...area.applied);
  const yDepletion = (mm: number) => depletionBottom - (Math.max(0, mm) / depletionMax) * DEPLETION_HEIGHT;
  const yWater = (mm: number) => waterBottom - (Math.max(0, mm) / waterMax) * WATER_HEIGHT;
  const depletionTicks: number[] = [];
  for (let tick = 0; tick <= depletionMax + 1e-9; tick += step) depletionTicks.push(Math.round(tick * 100) / 100);
  const every = Math.max(1, Math.ceil(TICK_ROOM / dayWidth));
  const dateTicks: number[] = [];
  for (let index = 0; index < days; index += every) dateTicks.push(index);
  const measuredDays = Math.min(area.measuredDays, days);
  return {
    width,
    height: waterBottom + CHART_MARGIN.bottom,
    days,
    dayWidth,
    x,
    depletionTop,
    depletionBottom,
    waterTop,
    waterBottom,
    depletionMax,
    waterMax,
    yDepletion,
    yWater,
    depletionTicks,
    dateTicks,
    measured: line(area.depletion.slice(0, measuredDays), x, yDepletion),
    forecast: measuredDays < days ? line(area.depletion, x, yDepletion, Math.max(0, measuredDays - 1)) : '',
    taw: line(area.taw, x, yDepletion),
    raw: line(area.raw, x, yDepletion),
    stages: stageRuns(area),
  };
}

/** The day under a point of the chart (its x, px), held to the days there are. */
export function dayAt(geometry: SeasonChartGeometry, pointX: number): number {
  const index = Math.floor((pointX - CHART_MARGIN.left) / geometry.dayWidth);
  return Math.min(geometry.days - 1, Math.max(0, index));
}

/** The dd.mm.yyyy day `index` days after a dd.mm.yyyy day. */
export function dottedDayAfter(dotted: string, index: number): string {
  const [day, month, year] = dotted.split('.').map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day! + index));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
}
