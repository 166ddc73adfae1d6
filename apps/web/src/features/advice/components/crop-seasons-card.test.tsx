import type { CropSeason } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { buildSprinklerDetail } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { cropSeasonsKey } from '../api/get-crop-seasons';
import { CropSeasonsCard } from './crop-seasons-card';

const NOW = new Date(2026, 10, 27, 12);

const seasons: CropSeason[] = [
  { name: 'Rzepak 2025', polygon: null, crop: 'winter-wheat', emergence: '20.09.2025', soil: 'loam' },
  {
    name: 'Kukurydza 2026',
    polygon: 'Kukurydza',
    crop: 'maize-grain',
    emergence: '05.05.2026',
    soil: { fieldCapacity: 0.25, wiltingPoint: 0.125 },
  },
];

async function renderCard(level: 'control' | 'watch', locale: Locale = 'en') {
  const sprinkler = buildSprinklerDetail({ level });
  queryClient.setQueryData(cropSeasonsKey(sprinkler.id), seasons);
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <CropSeasonsCard sprinkler={sprinkler} now={NOW} />
    </QueryClientProvider>,
    { locale },
  );
  return screen.getByRole('region', { name: locale === 'en' ? 'Crop seasons' : 'Sezony upraw' });
}

afterEach(() => queryClient.clear());

describe('the crop seasons card', () => {
  it('lists this year’s seasons, and last year’s a step back', async () => {
    const card = await renderCard('control');
    expect(card).toHaveTextContent(
      'Kukurydza 2026Kukurydza · Maize (grain) · emergence 05/05/2026 · θFC 25 %, θWP 12.5 %',
    );
    expect(card).not.toHaveTextContent('Rzepak');
    expect(within(card).getByRole('button', { name: 'Next year' })).toBeDisabled();
    await userEvent.click(within(card).getByRole('button', { name: 'Previous year' }));
    expect(card).toHaveTextContent('Rzepak 2025Whole circle · Winter wheat · emergence 20/09/2025 · Loam');
    expect(card).not.toHaveTextContent('Kukurydza 2026');
  });

  it('offers a user with control to add, edit and remove', async () => {
    const card = await renderCard('control');
    expect(within(card).getByRole('button', { name: 'Edit season Kukurydza 2026' })).toBeVisible();
    expect(within(card).getByRole('button', { name: 'Remove season Kukurydza 2026' })).toBeVisible();
    await userEvent.click(within(card).getByRole('button', { name: 'Edit season Kukurydza 2026' }));
    const form = screen.getByRole('dialog', { name: 'Edit crop season' });
    expect(within(form).getByLabelText('Soil')).toHaveValue('custom');
    expect(within(form).getByLabelText('Wilting point θWP, % vol.')).toHaveValue('12.5');
  });

  it('writes the emergence in the app’s date style of each language', async () => {
    const card = await renderCard('watch', 'pl');
    expect(card).toHaveTextContent('wschody 05.05.2026');
  });

  it('shows a watcher the seasons without a button to change them', async () => {
    const card = await renderCard('watch');
    expect(card).toHaveTextContent('Kukurydza 2026');
    expect(within(card).queryByRole('button', { name: /Edit|Remove|Add season/ })).toBeNull();
  });
});
