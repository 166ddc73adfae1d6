import type { WaterBalanceSeason, WaterBalanceSeasonArea } from '@pivot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { seasonChartGeometry } from '../lib/season-chart';
import { SeasonChooser } from './season-chart-card';

const MEASURED = 20;
const DAYS = 26;

/** A zone 26 days from 01.06.2026: 20 measured (rain on the 4th and 5th, water on the 9th), 6 foreseen up to its next irrigation. */
function area(name: string, changes: Partial<WaterBalanceSeasonArea> = {}): WaterBalanceSeasonArea {
  const days = Array.from({ length: DAYS }, (_, index) => index);
  return {
    name,
    firstDay: '01.06.2026',
    measuredDays: MEASURED,
    nextIrrigation: '26.06.2026',
    depletion: days.map((day) => (day < 8 ? day * 2 : (day - 8) * 1.5)),
    taw: days.map((day) => 40 + day),
    raw: days.map((day) => 20 + day / 2),
    rain: days.map((day) => (day === 4 ? 12 : day === 3 ? 0.5 : 0)),
    effectiveRain: days.map((day) => (day === 4 ? 12 : 0)),
    applied: days.map((day) => (day === 8 ? 23.5 : 0)),
    et0: days.map(() => 4.2),
    etc: days.map((day) => (day < 10 ? 0.4 : 0.6) * 4.2),
    kc: days.map((day) => (day < 10 ? 0.4 : 0.6)),
    ks: days.map((day) => (day === 19 ? 0.95 : 1)),
    stage: days.map((day) => (day < 10 ? 'initial' : 'development')),
    ...changes,
  };
}

const season: WaterBalanceSeason = {
  date: '20.06.2026',
  reason: null,
  station: 'WS-1',
  forecast: 'recent-et0',
  forecastFallback: 'off',
  zones: [area('Kukurydza 2026')],
  sectors: [area('Sektor 1', { depletion: Array.from({ length: DAYS }, () => 5) })],
};

describe('the season chart', () => {
  it('draws the chosen area’s depletion, TAW, RAW, the forecast apart and the stages, and tells a day’s numbers', async () => {
    const user = userEvent.setup();
    await renderInApp(<SeasonChooser season={season} />);
    const chart = await screen.findByRole('img', {
      name: /Soil water deficit of Kukurydza 2026 from 01\/06\/2026 to 26\/06\/2026/,
    });
    // Four lines: TAW, RAW, the measured depletion and the forecast; rain and water as bars.
    expect(chart.querySelectorAll('path')).toHaveLength(4);
    expect(chart.querySelector('path[stroke-dasharray="4 4"]')).not.toBeNull();
    expect(within(chart).getByText('Initial · Kc 0.4')).toBeInTheDocument();
    expect(within(chart).getByText('Development · Kc 0.6')).toBeInTheDocument();
    expect(screen.getByText('Soil water deficit')).toBeVisible();

    // The last measured day, then a step into the forecast.
    chart.focus();
    await user.keyboard('{ArrowLeft}{ArrowRight}');
    let tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('20/06/2026');
    expect(tooltip).not.toHaveTextContent('forecast');
    expect(tooltip).toHaveTextContent('Ks0.95');
    expect(tooltip).toHaveTextContent('ET₀4.2 mm');
    expect(tooltip).toHaveTextContent('ETc2.5 mm');
    expect(tooltip).toHaveTextContent('Deficit16.5 mm');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('21/06/2026 · forecast');
    await user.keyboard('{Home}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('05/06/2026');
    expect(tooltip).toHaveTextContent('Rain12 mm');
    expect(tooltip).toHaveTextContent('Growth stageInitial');
    // Rain under 0.2 ET0: shown, and what the balance counts of it.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('Rain0.5 mm (0 mm in the balance)');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Crop zone or sector' }), 'Sektor 1');
    expect(await screen.findByRole('img', { name: /Soil water deficit of Sektor 1/ })).toBeVisible();
  });

  it('speaks Polish, and says why there is no season', async () => {
    await renderInApp(<SeasonChooser season={season} />, { locale: 'pl' });
    expect(await screen.findByRole('img', { name: /Deficyt wody Kukurydza 2026 od 01\.06\.2026/ })).toBeVisible();
    expect(screen.getByText(/RAW \(łatwo dostępna woda\)/)).toBeVisible();
    await renderInApp(<SeasonChooser season={{ ...season, reason: 'no_season', zones: [], sectors: [] }} />);
    expect(screen.getByText(/No crop season runs on this day/)).toBeVisible();
  });

  it('lays a 180-day season out on a phone with its dates apart', () => {
    const long = Array.from({ length: 180 }, (_, day) => day);
    const geometry = seasonChartGeometry(
      area('Long', {
        measuredDays: 170,
        depletion: long.map((day) => day % 30),
        taw: long.map(() => 60),
        raw: long.map(() => 30),
        rain: long.map(() => 0),
        effectiveRain: long.map(() => 0),
        applied: long.map((day) => (day % 5 === 0 ? 20 : 0)),
        et0: long.map(() => 4),
        etc: long.map(() => 4),
        kc: long.map(() => 1),
        ks: long.map(() => 1),
        stage: long.map(() => 'midSeason'),
      }),
      390,
    );
    // Its speed is bench:web-season-chart's (docs/benchmarks.md). On a phone the dates stay apart: one label in every few days.
    expect(geometry.dateTicks.length).toBeLessThan(8);
    expect(geometry.forecast.startsWith('M')).toBe(true);
  });
});
