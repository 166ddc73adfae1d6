import type { ProgramFromAdvice, WaterBalance } from '@pivot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildWaterBalance, buildWaterBalanceArea } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { WaterBalanceAdvice } from './advice-card';
import { ProgramFromAdvicePreview } from './program-from-advice-preview';

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
    expect(screen.getByText(/last 7 days’ mean reference evapotranspiration times the crop coefficient/)).toBeVisible();
    const maize = screen.getByRole('listitem', { name: 'Kukurydza 2026' });
    expect(maize).toHaveTextContent('12.4 mm, min–max 9.1–14 mm');
    expect(maize).toHaveTextContent('RAW 20.8 mm / TAW 41.6 mm');
    expect(screen.getByText(/TAW \(total available water\).*RAW \(readily available water\)/)).toBeVisible();
    expect(maize).toHaveTextContent('Next irrigation: 10/06/2026');
    expect(maize).toHaveTextContent('net 21.3 mm, gross 25.1 mm');
    expect(within(maize).getByRole('img')).toHaveAccessibleName(
      'Depletion 12.4 mm of 41.6 mm available; water is due at 20.8 mm',
    );
    expect(screen.getByRole('heading', { name: 'Sectors of the active program' })).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Sektor 1' })).toHaveTextContent('Next irrigation: today');
    expect(screen.getByRole('listitem', { name: 'Sektor 2' })).toHaveTextContent(
      'Next irrigation: — (nothing due before the season ends)',
    );
    expect(screen.getByRole('listitem', { name: 'Sektor 2' })).toHaveTextContent(
      'Dose: — (nothing due before the season ends)',
    );
  });

  it('prints one depletion for an area of one cell, not a range of one value', async () => {
    const oneCell = zone({ name: 'Sektor 3', depletion: 1.7, depletionMin: 1.7, depletionMax: 1.7 });
    await renderInApp(<WaterBalanceAdvice balance={balance({ sectors: [oneCell] })} today="08.06.2026" />, {
      locale: 'pl',
    });
    const sector = screen.getByRole('listitem', { name: 'Sektor 3' });
    expect(sector).toHaveTextContent('Deficyt wody: 1,7 mmWoda');
    expect(sector).not.toHaveTextContent('min–maks');
  });

  it('says what one pass gives and what waits for the next, in Polish and English', async () => {
    const deep = zone({
      name: 'Kukurydza',
      netDose: 25,
      restDose: 21,
      grossDose: 29.41,
      percentTimer: 20.2,
      passes: 1,
    });
    const shown = balance({ zones: [deep], sectors: [] });
    const { unmount } = await renderInApp(<WaterBalanceAdvice balance={shown} today="08.06.2026" />, { locale: 'pl' });
    expect(screen.getByRole('listitem', { name: 'Kukurydza' })).toHaveTextContent(
      'netto 25 mm, brutto 29,4 mm; reszta deficytu wody (21 mm netto) w następnym przejeździe — jeden przejazd daje najwyżej 25 mm netto',
    );
    unmount();
    await renderInApp(<WaterBalanceAdvice balance={shown} today="08.06.2026" />);
    expect(screen.getByRole('listitem', { name: 'Kukurydza' })).toHaveTextContent(
      'net 25 mm, gross 29.4 mm; the remaining depletion (21 mm net) on the next pass — one pass gives at most 25 mm net',
    );
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
    // An agronomist's words: the depletion is the water deficit, TAW and RAW said in full.
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent('Deficyt wody: 12,4 mm');
    expect(screen.getByText(/TAW \(całkowita dostępna woda\).*RAW \(łatwo dostępna woda\)/)).toBeVisible();
    expect(screen.getByText(/wzorcowej z ostatnich 7 dni razy współczynnik uprawy/)).toBeVisible();
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
    expect(screen.getByRole('listitem', { name: 'Kukurydza 2026' })).toHaveTextContent(
      'Timer: — (depth at 100 % not known yet)',
    );
    view.unmount();
    await renderInApp(<WaterBalanceAdvice balance={balance()} today="08.06.2026" />, { locale: 'pl' });
    expect(screen.getByText(/Dawka przy 100 % nieznana: timer potrzebuje kilku godzin raportów maszyny/)).toBeVisible();
  });

  it('names the forecast service when its days were used, in both languages', async () => {
    const view = await renderInApp(
      <WaterBalanceAdvice balance={balance({ forecast: 'forecast', forecastFallback: null })} today="08.06.2026" />,
    );
    expect(screen.getByText(/Forecast from the weather service/)).toBeVisible();
    view.unmount();
    await renderInApp(
      <WaterBalanceAdvice balance={balance({ forecast: 'forecast', forecastFallback: null })} today="08.06.2026" />,
      {
        locale: 'pl',
      },
    );
    expect(screen.getByText(/Prognoza z serwisu pogodowego/)).toBeVisible();
  });

  it('says why the outlook is the recent ET0, in both languages', async () => {
    const view = await renderInApp(
      <WaterBalanceAdvice balance={balance({ forecastFallback: 'failed' })} today="08.06.2026" />,
    );
    expect(screen.getByText(/The weather forecast service did not answer/)).toBeVisible();
    view.unmount();
    await renderInApp(<WaterBalanceAdvice balance={balance({ forecastFallback: 'off' })} today="08.06.2026" />, {
      locale: 'pl',
    });
    expect(
      screen.getByText(/średniej ewapotranspiracji wzorcowej .*Prognoza pogody jest wyłączona na tym serwerze/),
    ).toBeVisible();
  });
});

const program = (changes: Partial<ProgramFromAdvice> = {}): ProgramFromAdvice => ({
  date: '07.06.2026',
  reason: null,
  revolutionHours: 30.5,
  marginHours: 24,
  sectors: [
    { name: 'Kukurydza', nextIrrigation: '08.06.2026', arrivalHours: 0, rate: 29.4, source: 'advised', restDose: 6.2 },
    { name: 'Buraki', nextIrrigation: '08.06.2026', arrivalHours: 6, rate: 20.4, source: 'advised', restDose: 0 },
    {
      name: 'Pszenica',
      nextIrrigation: '30.06.2026',
      arrivalHours: 12.25,
      rate: 0,
      source: 'dry_pass',
      restDose: null,
    },
    { name: 'Sad', nextIrrigation: null, arrivalHours: 20, rate: 9, source: 'kept', restDose: null },
    { name: 'Droga', nextIrrigation: null, arrivalHours: 22, rate: -1, source: 'forbidden', restDose: null },
  ],
  programData: null,
  ...changes,
});

describe('the program from the advice, before it is stored', () => {
  it('shows each sector’s due date, rate and where the rate came from, and flags a rate the advice did not set', async () => {
    await renderInApp(<ProgramFromAdvicePreview advice={program()} />);
    expect(screen.getByText(/a revolution at these rates takes 30.5 h/)).toBeVisible();
    const maize = screen.getByRole('listitem', { name: 'Kukurydza' });
    expect(maize).toHaveTextContent('29.4 mm');
    expect(maize).toHaveTextContent('Due 08/06/2026 · the arm is over it now');
    expect(maize).toHaveTextContent('Advised: refills the depletion expected when the arm gets there');
    expect(maize).toHaveTextContent(
      'The remaining depletion (6.2 mm net) on the next pass: one pass gives at most 25 mm net',
    );
    expect(screen.getByRole('listitem', { name: 'Buraki' })).not.toHaveTextContent('next pass');
    expect(screen.getByRole('listitem', { name: 'Pszenica' })).toHaveTextContent(
      '0 mmDue 30/06/2026 · the arm there in 12.3 hNot due: dry pass at full speed',
    );
    expect(screen.getByRole('listitem', { name: 'Sad' })).toHaveTextContent(
      'Kept from the machine’s program: the advice has no numbers for this sector. Check this rate.',
    );
    expect(screen.getByRole('listitem', { name: 'Droga' })).toHaveTextContent('no water');
  });

  it('says so when nothing is due, and why there is no program, in Polish too', async () => {
    const view = await renderInApp(<ProgramFromAdvicePreview advice={program({ reason: 'nothing_due' })} />, {
      locale: 'pl',
    });
    expect(
      screen.getByText('Nic nie jest potrzebne, zanim ramię tam dojdzie: nie ma programu do wysłania.'),
    ).toBeVisible();
    expect(screen.getByRole('listitem', { name: 'Pszenica' })).toHaveTextContent('Termin 30.06.2026');
    view.unmount();
    await renderInApp(
      <ProgramFromAdvicePreview advice={program({ reason: 'pace_unknown', sectors: [], revolutionHours: null })} />,
    );
    expect(screen.getByText(/The machine’s pace is not known yet/)).toBeVisible();
    expect(screen.queryByRole('listitem')).toBeNull();
  });
});
