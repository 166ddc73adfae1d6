/**
 * The soil-water balance (FAO-56 chapter 8) of a 520 m machine's whole season: every 10 m cell
 * of the irrigated circle (about 8,500) over 180 days, as the advice computes it from a station's
 * weather and the watermap's water. Target: under 200 ms. Beside it, for context: one more day
 * for every cell (the daily update), and the next irrigation of every cell.
 *
 * Pure computation, no server or database: the figure is the calculation's own cost.
 */
import { performance } from 'node:perf_hooks';
import { nextIrrigationOfCells, outlookFromCurves } from '@pivot/server/src/modules/water-balance/irrigation-advice';
import { SOIL_TEXTURES } from '@pivot/server/src/modules/crop-seasons/soil-table';
import { tableSeasonCrop } from '@pivot/server/src/modules/crop-seasons/season-crop';
import { runCells, seasonCurves } from '@pivot/server/src/modules/water-balance/water-balance';
import { readOptions } from './support/cli';
import { seededRandom } from './support/random';
import { formatNumber, printFigure, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { summarise } from './support/stats';

const TARGET_MS = 200;
const CELL_STEP_M = 10;
const EFFICIENCY = 0.85;
/** A pass of the machine every few days, the dose a pivot typically gives. */
const PASS_EVERY_DAYS = 4;
const PASS_DOSE_MM = 20;

const options = readOptions({ radius: 520, days: 180, runs: 20, warmUp: 5 });

/** The angle (degrees, 0 … 360) of each 10 m cell whose centre lies within the machine's reach. */
function cellAngles(radius: number): Float64Array {
  const angles: number[] = [];
  const cellsAcross = Math.ceil(radius / CELL_STEP_M);
  for (let row = -cellsAcross; row < cellsAcross; row += 1) {
    for (let column = -cellsAcross; column < cellsAcross; column += 1) {
      const x = (column + 0.5) * CELL_STEP_M;
      const y = (row + 0.5) * CELL_STEP_M;
      if (Math.hypot(x, y) <= radius) angles.push(((Math.atan2(x, y) * 180) / Math.PI + 360) % 360);
    }
  }
  return Float64Array.from(angles);
}

function elapsed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

runBenchmark('advice-season', 120_000, async () => {
  const random = seededRandom(21);
  const angles = cellAngles(options.radius);
  const count = angles.length;
  const days = options.days;
  const weather = {
    // A summer's swing of ET0 (1.5 … 5.5 mm/day), rain on about one day in four, a station's wind and RHmin.
    referenceEvapotranspiration: Float64Array.from(
      { length: days },
      (_, day) => 3.5 - 2 * Math.cos((2 * Math.PI * day) / 365) + random.between(-0.5, 0.5),
    ),
    rain: Float64Array.from({ length: days }, () => (random.next() < 0.25 ? random.between(0, 20) : 0)),
    wind: Float64Array.from({ length: days }, () => random.between(1, 4)),
    minHumidity: Float64Array.from({ length: days }, () => random.between(30, 70)),
  };
  // The arm passes each cell on the day its angle comes round, day by day for all cells.
  const applied = new Float32Array(days * count);
  for (let day = 0; day < days; day += 1) {
    for (let cell = 0; cell < count; cell += 1) {
      const passDay = Math.floor((angles[cell]! / 360) * PASS_EVERY_DAYS);
      if (day % PASS_EVERY_DAYS === passDay) applied[day * count + cell] = PASS_DOSE_MM;
    }
  }
  const crop = tableSeasonCrop('sugar-beet');
  const soil = SOIL_TEXTURES.loam;
  const season = () => runCells(seasonCurves(crop, soil, weather), { count, applied }, { efficiency: EFFICIENCY });

  for (let run = 0; run < options.warmUp; run += 1) season();
  const durations = Array.from({ length: options.runs }, () => elapsed(season));
  const whole = summarise(durations);

  const curves = seasonCurves(crop, soil, weather);
  const untilYesterday = runCells(
    curves,
    { count, applied: applied.subarray(0, (days - 1) * count) },
    { efficiency: EFFICIENCY, lastDay: days - 1 },
  );
  const oneDay = () =>
    runCells(
      curves,
      { count, applied: applied.subarray((days - 1) * count) },
      { efficiency: EFFICIENCY, firstDay: days, startDepletion: untilYesterday.finalDepletion },
    );
  for (let run = 0; run < options.warmUp; run += 1) oneDay();
  const day = summarise(Array.from({ length: options.runs }, () => elapsed(oneDay)));

  // The forecast as at the middle of the season, when the most days lie ahead.
  const midSeason = Math.floor(days / 2);
  const untilMidSeason = runCells(
    curves,
    { count, applied: applied.subarray(0, midSeason * count) },
    { efficiency: EFFICIENCY, lastDay: midSeason },
  );
  // The curves run through the season's last day, as the advice's do over its coming days.
  const outlook = outlookFromCurves(curves, midSeason + 1);
  const forecast = () => nextIrrigationOfCells(untilMidSeason.finalDepletion, outlook);
  for (let run = 0; run < options.warmUp; run += 1) forecast();
  const next = summarise(Array.from({ length: options.runs }, () => elapsed(forecast)));

  const result = season();
  const outputBytes =
    result.depletion.byteLength +
    result.stress.byteLength +
    result.evapotranspiration.byteLength +
    result.deepPercolation.byteLength;

  printTitle('Advice: the soil-water balance (FAO-56 chapter 8) of a whole season, every cell', {
    machine: `${options.radius} m, ${formatNumber(count)} cells of ${CELL_STEP_M} m`,
    season: `${days} days of sugar beet on loam, a ${PASS_DOSE_MM} mm pass every ${PASS_EVERY_DAYS} days`,
    runs: `${options.runs} after ${options.warmUp} to warm up, one after another on the main thread`,
  });
  printTargeted('season, p95', whole.p95, 'ms', { below: TARGET_MS }, 1);
  printFigure('season, p50 / max', `${formatNumber(whole.p50, 1)} / ${formatNumber(whole.max, 1)} ms`);
  printFigure('one more day, every cell, p95', `${formatNumber(day.p95, 2)} ms`);
  printFigure(
    'next irrigation, every cell, p95',
    `${formatNumber(next.p95, 2)} ms (from day ${midSeason}, ${outlook.cropEvapotranspiration.length} days ahead at most)`,
  );
  printFigure('daily series kept', `${formatNumber(outputBytes / 1_048_576, 1)} MiB (4 float32 values a cell a day)`);
});
