/**
 * Packing a machine's day of reports (issue 22): simulated days of a 420 m pivot from the
 * simulator's own arm, moving about 60 % of the day and reporting every 5 s then, every 60 s at
 * rest (about 11,000 reports), packed with deflate and with brotli at a few settings. Prints the
 * packed bytes per report, the time to pack and to unpack a day, and checks that every day comes
 * back exactly.
 * Target: at most 15 bytes a packed report on disk, row and indexes included; the packed bytes
 * alone aim at 8 or fewer, leaving the rest to the table that will hold them.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type DayReport,
  type PackOptions,
  inspectPackedDay,
  packDay,
  unpackDay,
} from '@pivot/server/src/modules/telemetry/packed-day';
import { simulateDay } from '@pivot/simulator';
import { readOptions } from './support/cli';
import {
  formatNumber,
  printFigure,
  printNote,
  printSection,
  printTargeted,
  printTitle,
  printVerdict,
} from './support/report';
import { runBenchmark } from './support/run';
import { summarise } from './support/stats';

const TARGET_BYTES_PER_REPORT = 15;
const AIM_BYTES_PER_REPORT = 8;
const DAY_START = Date.UTC(2026, 5, 1);
/** Each setting packs the days this many times; the first round warms the JIT and is not counted. */
const ROUNDS = 3;

const SETTINGS: { name: string; options: PackOptions }[] = [
  { name: 'deflate, level 9', options: { compression: 'deflate' } },
  { name: 'brotli, quality 5', options: { compression: 'brotli', brotliQuality: 5 } },
  { name: 'brotli, quality 9', options: { compression: 'brotli', brotliQuality: 9 } },
  { name: 'brotli, quality 10, window 2^22', options: { compression: 'brotli', brotliWindowBits: 22 } },
  { name: 'brotli, quality 10, window 2^16 *', options: {} },
  {
    name: 'brotli, quality 11, window 2^22',
    options: { compression: 'brotli', brotliQuality: 11, brotliWindowBits: 22 },
  },
];

const options = readOptions({ days: 10 });

function simulatedDays(count: number): DayReport[][] {
  return Array.from({ length: count }, (_, index) =>
    simulateDay({ start: DAY_START + index * 86_400_000, seed: index + 1 }).map(
      ({ alarm: _alarm, ...report }) => report,
    ),
  );
}

runBenchmark('bench:packing', 10 * 60_000, async () => {
  const days = simulatedDays(options.days);
  const reports = days.reduce((sum, day) => sum + day.length, 0);
  printTitle('Packing a machine’s day of reports', {
    days: `${options.days} simulated days of a 420 m pivot, moving ~60 % of each`,
    reports: `${formatNumber(reports / days.length)} a day on average`,
    target: `≤ ${TARGET_BYTES_PER_REPORT} bytes a packed report on disk; the packed bytes aim at ≤ ${AIM_BYTES_PER_REPORT}`,
  });

  const columnar = days.map((day) => packDay(day, { compression: 'none' }));
  printFigure(
    'columns before compression',
    `${formatNumber(sum(columnar.map((bytes) => bytes.length)) / reports, 2)} bytes a report`,
  );
  printFigure('the telemetry table today', '185 bytes a report, indexes included (issue 22)');
  const layout = inspectPackedDay(columnar[0]!);
  printFigure(
    'columns of the first day',
    Object.entries(layout.columns)
      .map(([column, encoding]) =>
        encoding.kind === 'raw' ? `${column} raw` : `${column} ${encoding.decimals} dec./order ${encoding.order}`,
      )
      .join(', '),
  );

  let exact = true;
  let chosenBytesPerReport = Number.POSITIVE_INFINITY;
  for (const setting of SETTINGS) {
    const packTimes: number[] = [];
    const unpackTimes: number[] = [];
    const bytesPerReport: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const day of days) {
        const packStart = performance.now();
        const packed = packDay(day, setting.options);
        const unpackStart = performance.now();
        const unpacked = unpackDay(packed);
        const unpackEnd = performance.now();
        if (round === 0) {
          exact &&= isDeepStrictEqual(unpacked, day);
          bytesPerReport.push(packed.length / day.length);
          continue;
        }
        packTimes.push(unpackStart - packStart);
        unpackTimes.push(unpackEnd - unpackStart);
      }
    }
    const mean = sum(bytesPerReport) / bytesPerReport.length;
    printSection(setting.name);
    printTargeted('bytes a packed report (mean)', mean, 'B', { atMost: AIM_BYTES_PER_REPORT }, 2);
    printTargeted(
      'bytes a packed report (worst day)',
      Math.max(...bytesPerReport),
      'B',
      { atMost: TARGET_BYTES_PER_REPORT },
      2,
    );
    printFigure('packing a day (p50, max)', milliseconds(packTimes));
    printFigure('unpacking a day (p50, max)', milliseconds(unpackTimes));
    if (setting.name.endsWith('*')) chosenBytesPerReport = mean;
  }

  printSection('packDay’s default (*)');
  printTargeted('bytes a packed report', chosenBytesPerReport, 'B', { atMost: TARGET_BYTES_PER_REPORT }, 2);
  printVerdict('every day back exactly', exact ? 'yes' : 'NO', 'yes', exact);
  printNote(
    'The bound is for the packed bytes with their row and indexes: the table that will hold them adds per row.',
  );
});

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function milliseconds(samples: readonly number[]): string {
  const { p50, max } = summarise(samples);
  return `${formatNumber(p50, 1)} ms, ${formatNumber(max, 1)} ms`;
}
