import { type StationDay, StationDaySchema } from '@pivot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { StationDaysTable } from './weather-station-days';

const days: StationDay[] = [
  {
    date: '06.07.2026',
    et0: 3.912,
    rain: 0.6,
    wind: 2.078,
    minHumidity: 63,
    maxHumidity: 84,
    minTemperature: 12.3,
    maxTemperature: 21.5,
    solarRadiation: 22.07,
    readings: 3,
  },
  {
    date: '07.07.2026',
    et0: 2.5,
    rain: 0,
    wind: null,
    minHumidity: 60,
    maxHumidity: 60,
    minTemperature: 18,
    maxTemperature: 18,
    solarRadiation: null,
    readings: 1,
  },
].map((day) => StationDaySchema.parse(day));

const cellsOf = (date: string) =>
  within(screen.getByRole('row', { name: new RegExp(date) }))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe("a weather station's last days", () => {
  it('gives each day its ET0, rain, temperatures, humidities, wind and readings, in Polish', async () => {
    await renderInApp(<StationDaysTable days={days} />, { locale: 'pl' });
    expect(screen.getByRole('table', { name: /Ostatnie dni/ })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Opad (mm)' })).toBeInTheDocument();
    expect(cellsOf('06.07.2026')).toEqual(['3,9', '0,6', '12,3–21,5', '63–84', '2,1', '3']);
    // A station without wind: ET0 took 2 m/s, and the table says the station gave none.
    expect(cellsOf('07.07.2026')).toEqual(['2,5', '0', '18–18', '60–60', '—', '1']);
  });

  it('speaks English with English numbers and dates', async () => {
    await renderInApp(<StationDaysTable days={days} />, { locale: 'en' });
    expect(screen.getByRole('table', { name: /Last days/ })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Rain (mm)' })).toBeInTheDocument();
    expect(cellsOf('06/07/2026')).toEqual(['3.9', '0.6', '12.3–21.5', '63–84', '2.1', '3']);
  });
});
