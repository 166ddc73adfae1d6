import type { WaterBalance } from '@pivot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildWaterBalance, buildWaterBalanceArea } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { WaterBalanceAdvice } from './advice-card';

const zone = buildWaterBalanceArea;
const balance = (changes: Partial<WaterBalance> = {}): WaterBalance =>
  buildWaterBalance({
    sectors: [
      zone({ name: 'Sektor 1', nextIrrigation: '08.06.2026' }),
      zone({ name: 'Sektor 2', nextIrrigation: null, netDose: null, grossDose: null }),
    ],
    ...changes,
  });

describe('the irrigation advice', () => {
  it('shows each zone’s and sector’s depletion, next date (in the app’s date style) and doses, and where the outlook came from', async () => {
    await renderInApp(<WaterBalanceAdvice balance={balance()} today="08.06.2026" />);
    expect(screen.getByText(/end of 07\/06\/2026, station WS-12/)).toBeVisible();
    expect(screen.getByText(/last 7 days’ mean crop water use, no rain/)).toBeVisible();
    const maize = screen.getByRole('listitem', { name: 'Kukurydza 2026' });
    expect(maize).toHaveTextContent('12.4 mm, min–max 9.1–14 mm');
    expect(maize).toHaveTextContent('RAW 20.8 mm / TAW 41.6 mm');
    expect(maize).toHaveTextContent('Next irrigation: 10/06/2026');
    expect(maize).toHaveTextContent('net 21.3 mm, gross 25.1 mm');
    expect(within(maize).getByRole('img')).toHaveAccessibleName(
      'Depletion 12.4 mm of 41.6 mm available; water is due at 20.8 mm',
    );
    expect(screen.getByRole('heading', { name: 'Sectors of the active program' })).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Sektor 1' })).toHaveTextContent('Next irrigation: today');
    expect(screen.getByRole('listitem', { name: 'Sektor 2' })).toHaveTextContent('Next irrigation: —');
    expect(screen.getByRole('listitem', { name: 'Sektor 2' })).toHaveTextContent('Dose: —');
  });

  it('says why there is no advice, in Polish too', async () => {
    await renderInApp(
      <WaterBalanceAdvice balance={balance({ reason: 'no_season', zones: [], sectors: [] })} today="08.06.2026" />,
      {
        locale: 'pl',
      },
    );
    expect(screen.getByText(/nie trwa żaden sezon uprawy/)).toBeVisible();
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('writes Polish numbers with a comma and dates with dots, and counts the days without weather', async () => {
    await renderInApp(
      <WaterBalanceAdvice balance={balance({ missingWeatherDays: 3, sectors: [] })} today="08.06.2026" />,
      {
        locale: 'pl',
      },
    );
    expect(screen.getByText(/na koniec dnia 07.06.2026, stacja WS-12/)).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent(
      'Następne nawadnianie: 10.06.2026',
    );
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent('netto 21,3 mm, brutto 25,1 mm');
    expect(screen.getByText(/przez 3 dni sezonu/)).toBeVisible();
    expect(screen.getByText(/ostatnich 7 dniach, bez deszczu/)).toBeVisible();
  });

  it('gives each area its percent timer or passes, and says where the depth at 100 % came from', async () => {
    const withTimers = balance({
      applicationDepth: { depthAtFullSpeed: 4, source: 'reports' },
      zones: [zone({ percentTimer: 16, passes: 1 })],
      sectors: [
        zone({ name: 'Sektor 1', percentTimer: 1.6, passes: 2 }),
        zone({ name: 'Sektor 2', netDose: null, grossDose: null }),
      ],
    });
    const view = await renderInApp(<WaterBalanceAdvice balance={withTimers} today="08.06.2026" />);
    expect(screen.getByText('Depth at 100 %: 4.0 mm (from the machine’s reports)')).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent('Timer: 16 %');
    expect(screen.getByRole('listitem', { name: 'Sektor 1' })).toHaveTextContent('Timer: 2 passes at 1.6 %');
    expect(screen.getByRole('listitem', { name: 'Sektor 2' })).toHaveTextContent('Timer: —');
    view.unmount();
    await renderInApp(
      <WaterBalanceAdvice
        balance={{ ...withTimers, applicationDepth: { depthAtFullSpeed: 4.25, source: 'setting' } }}
        today="08.06.2026"
      />,
      { locale: 'pl' },
    );
    expect(screen.getByText('Dawka przy 100 %: 4,3 mm (ustawiona przez administratora)')).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Sektor 1' })).toHaveTextContent('Timer: 2 przejazdy przy 1,6 %');
  });

  it('says what the timer needs while the depth at 100 % is unknown, in both languages', async () => {
    const view = await renderInApp(<WaterBalanceAdvice balance={balance()} today="08.06.2026" />);
    expect(
      screen.getByText(
        'Depth at 100 % unknown: the timer needs a few hours of the machine’s reports, or an administrator’s setting.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent('Timer: —');
    view.unmount();
    await renderInApp(<WaterBalanceAdvice balance={balance()} today="08.06.2026" />, { locale: 'pl' });
    expect(screen.getByText(/Dawka przy 100 % nieznana: timer potrzebuje kilku godzin raportów maszyny/)).toBeVisible();
  });

  it('names the forecast service when its days were used, in both languages', async () => {
    const view = await renderInApp(
      <WaterBalanceAdvice balance={balance({ forecast: 'forecast' })} today="08.06.2026" />,
    );
    expect(screen.getByText(/Forecast from the weather service/)).toBeVisible();
    view.unmount();
    await renderInApp(<WaterBalanceAdvice balance={balance({ forecast: 'forecast' })} today="08.06.2026" />, {
      locale: 'pl',
    });
    expect(screen.getByText(/Prognoza z serwisu pogodowego/)).toBeVisible();
  });
});
