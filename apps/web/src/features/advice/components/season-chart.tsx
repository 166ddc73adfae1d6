import type { GrowthStageKey, WaterBalanceSeasonArea } from '@pivot/contracts';
import {
  type KeyboardEvent,
  type PointerEvent,
  memo,
  startTransition,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '@/i18n/number-format';
import { useDottedDay } from '@/i18n/use-dotted-day';
import {
  CHART_MARGIN,
  type SeasonChartGeometry,
  dayAt,
  dottedDayAfter,
  seasonChartGeometry,
} from '../lib/season-chart';

/** Each stage's band colour: soft fills that read on the light and the dark theme alike. */
const STAGE_FILL: Record<GrowthStageKey, string> = {
  initial: 'fill-success-soft',
  development: 'fill-info-soft',
  midSeason: 'fill-water-soft',
  lateSeason: 'fill-warning-soft',
};
/** Width the chart takes before it is measured (and in a test's page, which lays nothing out), px. */
const UNMEASURED_WIDTH = 640;
/** The day's numbers' box: its width and its distance from the day's line, px. */
const TOOLTIP_WIDTH = 216;
const TOOLTIP_GAP = 10;
/** Below this width the day's numbers go under the chart rather than over it, px. */
const NARROW_CHART_PX = 480;
/** From this width two of the day's numbers go on a line under the chart, px. */
const TWO_PAIRS_PX = 300;
/** Roughly the width of one character of the band's labels, px: a label that does not fit is left out. */
const LABEL_CHAR_PX = 6;

type Format = (value: number, digits?: number) => string;

/** Numbers as the language writes them, to `digits` decimals at most. */
const formatIn =
  (language: string): Format =>
  (value, digits = 1) =>
    numberFormat(language, { maximumFractionDigits: digits }).format(value);

/**
 * One zone's or sector's season (docs/advice.md, "The season chart"): the daily depletion against
 * TAW and RAW, rain and the machine's water as bars below, the foreseen days dashed on a lighter
 * ground up to the next irrigation, the growth stages and Kc as a band above; pointing at or
 * tapping a day (or the arrow keys) tells its numbers. Hand-drawn SVG: a few paths and a bar a day.
 */
export function SeasonChart({ area }: { area: WaterBalanceSeasonArea }) {
  const { t, i18n } = useTranslation();
  const dottedDay = useDottedDay();
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(UNMEASURED_WIDTH);
  const [active, setActive] = useState<number | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const geometry = useMemo(() => seasonChartGeometry(area, width), [area, width]);
  const format = formatIn(i18n.language);
  const dateOf = (index: number) => dottedDayAfter(area.firstDay, index);
  const lastMeasured = area.measuredDays - 1;

  const pick = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const day = dayAt(geometry, ((event.clientX - box.left) / (box.width || 1)) * geometry.width);
    // Rendered in a task of its own, not inside the tap's: on a phone the tap's events and the
    // render together made a task of 50 ms or more (docs/benchmarks.md, the season chart).
    startTransition(() => setActive(day));
  };
  const step = (event: KeyboardEvent<SVGSVGElement>) => {
    const from = active ?? lastMeasured;
    const moves: Record<string, number> = {
      ArrowLeft: from - 1,
      ArrowRight: from + 1,
      Home: 0,
      End: geometry.days - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setActive(Math.min(geometry.days - 1, Math.max(0, next)));
  };

  return (
    <div ref={frame} className="relative w-full">
      <svg
        role="img"
        aria-label={t('advice.season.chartLabel', {
          name: area.name,
          from: dottedDay(area.firstDay),
          to: dottedDay(dateOf(geometry.days - 1)),
        })}
        tabIndex={0}
        width="100%"
        height={geometry.height}
        viewBox={`0 0 ${geometry.width} ${geometry.height}`}
        className="block touch-pan-y text-ink select-none focus-visible:outline-2 focus-visible:outline-focus"
        onPointerMove={pick}
        onPointerDown={pick}
        onPointerLeave={(event) => event.pointerType === 'mouse' && setActive(null)}
        onKeyDown={step}
        onBlur={() => setActive(null)}
      >
        <SeasonChartDrawing area={area} geometry={geometry} />
        {active !== null && (
          <g>
            <line
              x1={geometry.x(active)}
              x2={geometry.x(active)}
              y1={geometry.depletionTop}
              y2={geometry.waterBottom}
              className="stroke-ink"
            />
            <circle
              cx={geometry.x(active)}
              cy={geometry.yDepletion(area.depletion[active]!)}
              r={3.5}
              className="fill-water stroke-surface"
            />
          </g>
        )}
      </svg>
      {active !== null && (
        <DayTooltip
          area={area}
          index={active}
          date={dottedDay(dateOf(active))}
          dayX={geometry.x(active)}
          chartWidth={geometry.width}
          format={format}
        />
      )}
    </div>
  );
}

/**
 * All of the chart but the day pointed at: its stages, scales, bars, lines and dates. Drawn again
 * for another area, width or language only, not at each move of the pointer or tap, which on a
 * phone's slower CPU would otherwise redraw every bar of the season each time.
 */
const SeasonChartDrawing = memo(function SeasonChartDrawing({
  area,
  geometry,
}: {
  area: WaterBalanceSeasonArea;
  geometry: SeasonChartGeometry;
}) {
  const { t, i18n } = useTranslation();
  const dottedDay = useDottedDay();
  const format = formatIn(i18n.language);
  const shortDate = (index: number) => dottedDay(dottedDayAfter(area.firstDay, index)).slice(0, -5);
  const lastMeasured = area.measuredDays - 1;
  const forecastFrom = geometry.x(lastMeasured) + geometry.dayWidth / 2;
  const barWidth = Math.max(1, geometry.dayWidth / 2 - 0.5);
  return (
    <>
      {geometry.stages.map((run) => {
        const left = geometry.x(run.from) - geometry.dayWidth / 2;
        const bandWidth = (run.to - run.from + 1) * geometry.dayWidth;
        const stageName = run.stage
          ? t('advice.season.stageBand', { stage: t(`advice.season.stages.${run.stage}`) })
          : t('advice.season.stages.mixed');
        const kc =
          Math.abs(run.kcTo - run.kcFrom) < 0.005
            ? format(run.kcFrom, 2)
            : `${format(run.kcFrom, 2)}→${format(run.kcTo, 2)}`;
        const long = `${stageName} · Kc ${kc}`;
        const label = long.length * LABEL_CHAR_PX < bandWidth - 6 ? long : `Kc ${kc}`;
        return (
          <g key={run.from}>
            <rect
              x={left}
              y={2}
              width={bandWidth}
              height={16}
              className={run.stage ? STAGE_FILL[run.stage] : 'fill-surface-muted'}
            />
            {label.length * LABEL_CHAR_PX < bandWidth - 6 && (
              <text x={left + 4} y={14} className="fill-ink text-[10px]">
                {label}
              </text>
            )}
          </g>
        );
      })}
      {area.measuredDays < geometry.days && (
        <rect
          x={forecastFrom}
          y={geometry.depletionTop}
          width={geometry.width - CHART_MARGIN.right - forecastFrom}
          height={geometry.waterBottom - geometry.depletionTop}
          className="fill-surface-muted"
        />
      )}
      {geometry.depletionTicks.map((tick) => (
        <g key={tick}>
          <line
            x1={CHART_MARGIN.left}
            x2={geometry.width - CHART_MARGIN.right}
            y1={geometry.yDepletion(tick)}
            y2={geometry.yDepletion(tick)}
            className="stroke-line"
          />
          <text
            x={CHART_MARGIN.left - 4}
            y={geometry.yDepletion(tick) + 3}
            textAnchor="end"
            className="fill-ink-muted text-[10px] tabular-nums"
          >
            {tick === geometry.depletionMax ? t('advice.season.mm', { value: format(tick, 0) }) : format(tick, 0)}
          </text>
        </g>
      ))}
      <line
        x1={CHART_MARGIN.left}
        x2={geometry.width - CHART_MARGIN.right}
        y1={geometry.waterBottom}
        y2={geometry.waterBottom}
        className="stroke-line"
      />
      <text
        x={CHART_MARGIN.left - 4}
        y={geometry.waterTop + 8}
        textAnchor="end"
        className="fill-ink-muted text-[10px] tabular-nums"
      >
        {t('advice.season.mm', { value: format(geometry.waterMax, 0) })}
      </text>
      {area.rain.map((rain, index) =>
        rain > 0 ? (
          <rect
            key={`rain-${index}`}
            x={geometry.x(index) - barWidth}
            y={geometry.yWater(rain)}
            width={barWidth}
            height={geometry.waterBottom - geometry.yWater(rain)}
            className={`fill-info ${index > lastMeasured ? 'opacity-50' : ''}`}
          />
        ) : null,
      )}
      {area.applied.map((water, index) =>
        water > 0 ? (
          <rect
            key={`water-${index}`}
            x={geometry.x(index)}
            y={geometry.yWater(water)}
            width={barWidth}
            height={geometry.waterBottom - geometry.yWater(water)}
            className="fill-primary"
          />
        ) : null,
      )}
      <path d={geometry.taw} fill="none" strokeWidth={1.5} className="stroke-ink-muted" />
      <path d={geometry.raw} fill="none" strokeWidth={1.5} strokeDasharray="6 3" className="stroke-warning" />
      <path d={geometry.measured} fill="none" strokeWidth={2.25} strokeLinejoin="round" className="stroke-water" />
      {geometry.forecast && (
        <path
          d={geometry.forecast}
          fill="none"
          strokeWidth={2.25}
          strokeDasharray="4 4"
          className="stroke-water opacity-70"
        />
      )}
      {geometry.dateTicks.map((index) => (
        <text
          key={index}
          x={geometry.x(index)}
          y={geometry.height - 6}
          textAnchor="middle"
          className="fill-ink-muted text-[10px] tabular-nums"
        >
          {shortDate(index)}
        </text>
      ))}
    </>
  );
});

/** A day's numbers, beside the day pointed at (left of it on the chart's right half). */
function DayTooltip({
  area,
  index,
  date,
  dayX,
  chartWidth,
  format,
}: {
  area: WaterBalanceSeasonArea;
  index: number;
  date: string;
  dayX: number;
  chartWidth: number;
  format: Format;
}) {
  const { t } = useTranslation();
  const mm = (value: number) => t('advice.season.mm', { value: format(value) });
  const stage = area.stage[index];
  const rows: [string, string][] = [
    [t('advice.season.stage'), stage ? t(`advice.season.stages.${stage}`) : t('advice.season.stages.mixed')],
    ['Kc', format(area.kc[index]!, 2)],
    ['ET₀', mm(area.et0[index]!)],
    ['ETc', mm(area.etc[index]!)],
    [
      t('advice.season.rain'),
      // What the balance counts of the rain, where the 0.2 ET0 rule leaves it out.
      area.effectiveRain[index] === area.rain[index]
        ? mm(area.rain[index]!)
        : t('advice.season.rainValue', { rain: mm(area.rain[index]!), effective: mm(area.effectiveRain[index]!) }),
    ],
    [t('advice.season.water'), mm(area.applied[index]!)],
    ['Ks', format(area.ks[index]!, 2)],
    [t('advice.season.deficit'), mm(area.depletion[index]!)],
    ['RAW / TAW', `${mm(area.raw[index]!)} / ${mm(area.taw[index]!)}`],
  ];
  const forecast = index >= area.measuredDays;
  // Beside the day, on the side with room; under a phone's narrow chart, so that it hides none of it.
  const narrow = chartWidth < NARROW_CHART_PX;
  const right = dayX + TOOLTIP_GAP;
  const left = right + TOOLTIP_WIDTH <= chartWidth ? right : Math.max(0, dayX - TOOLTIP_GAP - TOOLTIP_WIDTH);
  return (
    <div
      role="tooltip"
      className={`pointer-events-none rounded-lg border border-line bg-surface p-2 text-xs ${
        narrow ? 'mt-2' : 'absolute top-6 z-10 shadow-md'
      }`}
      style={narrow ? undefined : { left, width: TOOLTIP_WIDTH }}
    >
      <p className="font-semibold">
        {date}
        {forecast && <span className="font-normal text-ink-muted"> · {t('advice.season.forecastDay')}</span>}
      </p>
      <dl
        className={`mt-1 grid gap-x-2 gap-y-0.5 ${narrow && chartWidth >= TWO_PAIRS_PX ? 'grid-cols-[auto_1fr_auto_1fr]' : 'grid-cols-[auto_1fr]'}`}
      >
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
