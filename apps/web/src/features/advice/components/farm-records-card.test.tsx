import type { FarmRecord } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerDetail, buildUser, buildWaterBalance, buildWaterBalanceArea } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { farmRecordsKey } from '../api/get-farm-records';
import { waterBalanceKey } from '../api/get-water-balance';
import { FarmRecordsCard } from './farm-records-card';

const NOW = new Date(2026, 10, 27, 12);
const STAMP = { createdAt: NOW.getTime(), updatedAt: NOW.getTime() };
const records: FarmRecord[] = [
  { ...STAMP, id: 3, kind: 'probe', date: '26.11.2026', probe: 'SOIL-2', moisture: 21.5 },
  { ...STAMP, id: 2, kind: 'irrigation', date: '25.11.2026', area: { kind: 'zone', name: 'Kukurydza 2026' }, mm: 12 },
  { ...STAMP, id: 1, kind: 'rain_gauge', date: '24.11.2026', area: { kind: 'machine' }, mm: 6.5 },
];

async function renderCard(level: 'control' | 'watch', locale: Locale = 'en') {
  const sprinkler = buildSprinklerDetail({ level });
  queryClient.setQueryData(farmRecordsKey(sprinkler.id), records);
  queryClient.setQueryData(
    waterBalanceKey(sprinkler.id),
    buildWaterBalance({ zones: [buildWaterBalanceArea({ name: 'Kukurydza 2026' })] }),
  );
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <FarmRecordsCard sprinkler={sprinkler} now={NOW} />
    </QueryClientProvider>,
    { locale },
  );
  return screen.getByRole('region', { name: locale === 'en' ? 'Farm records' : 'Pomiary własne' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe("the farm's records card", () => {
  it('lists each record with its day, kind, value and area', async () => {
    const card = await renderCard('watch');
    const items = within(card)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      '26/11/2026 · Probe readingSOIL-2 · 21.5 %',
      '25/11/2026 · Water from another source12 mm · Zone: Kukurydza 2026',
      '24/11/2026 · Rain gauge6.5 mm · Whole machine',
    ]);
    // A watcher sees them and nothing to change them with.
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('speaks Polish in the app’s date style', async () => {
    const card = await renderCard('watch', 'pl');
    expect(card).toHaveTextContent('24.11.2026 · Deszczomierz6,5 mm · Cała maszyna');
  });

  // Typing into a dialog and two answers take more than the default 5 s on a loaded machine.
  it('adds a rain gauge reading for a zone, and shows a refusal on its field in the page’s language', async () => {
    document.cookie = 'csrf_token=token-1; path=/';
    session.signIn(buildUser(), 'access-1');
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      if (init.method === 'POST') {
        sent.push(JSON.parse(init.body as string));
        if (sent.length === 1) {
          const refusal = { code: 'record_date_in_future', message: 'Pomiar można zapisać najdalej na dziś' };
          return new Response(JSON.stringify(refusal), {
            status: 400,
            headers: { 'content-type': 'application/json' },
          });
        }
        const stored = { ...STAMP, id: 4, ...(sent[1] as object) };
        return new Response(JSON.stringify(stored), { status: 201, headers: { 'content-type': 'application/json' } });
      }
      return new Response(JSON.stringify(url.includes('records') ? records : {}), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    const card = await renderCard('control', 'pl');
    await userEvent.click(within(card).getByRole('button', { name: 'Dodaj pomiar' }));
    const form = screen.getByRole('dialog', { name: 'Dodaj pomiar' });
    expect(within(form).getByLabelText('Dzień')).toHaveValue('27.11.2026');
    await userEvent.selectOptions(within(form).getByLabelText('Gdzie'), 'Strefa: Kukurydza 2026');
    // Not a number of mm: said before anything is sent.
    await userEvent.type(within(form).getByLabelText('Woda, mm'), 'x');
    await userEvent.click(within(form).getByRole('button', { name: 'Zapisz' }));
    expect(within(form).getByText('Podaj wodę w mm, od 0 do 500')).toBeVisible();
    expect(sent).toEqual([]);
    await userEvent.clear(within(form).getByLabelText('Woda, mm'));
    await userEvent.type(within(form).getByLabelText('Woda, mm'), '7,5');
    await userEvent.click(within(form).getByRole('button', { name: 'Zapisz' }));
    expect(
      await within(form).findByText(
        'Pomiar można zapisać najdalej na dziś. Wybierz dzisiejszy lub wcześniejszy dzień.',
      ),
    ).toBeVisible();
    await userEvent.click(within(form).getByRole('button', { name: 'Zapisz' }));
    expect(sent).toEqual([
      { kind: 'rain_gauge', date: '27.11.2026', area: { kind: 'zone', name: 'Kukurydza 2026' }, mm: 7.5 },
      { kind: 'rain_gauge', date: '27.11.2026', area: { kind: 'zone', name: 'Kukurydza 2026' }, mm: 7.5 },
    ]);
    // Stored: the form closes.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Dodaj pomiar' })).toBeNull());
  }, 20_000);

  it('opens a record for editing with its values', async () => {
    const card = await renderCard('control');
    await userEvent.click(within(card).getByRole('button', { name: 'Edit the record of 25/11/2026' }));
    const form = screen.getByRole('dialog', { name: 'Edit the record' });
    expect(within(form).getByLabelText('What')).toHaveValue('irrigation');
    expect(within(form).getByLabelText('Where')).toHaveValue('zone:Kukurydza 2026');
    expect(within(form).getByLabelText('Water, mm')).toHaveValue('12');
  });
});
