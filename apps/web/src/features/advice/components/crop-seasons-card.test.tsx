import type { CropSeason } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerDetail, buildUser } from '@/test-factories';
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
  const sprinkler = buildSprinklerDetail({
    level,
    areaMap: {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [17.1, 52.2],
                [17.101, 52.2],
                [17.101, 52.201],
                [17.1, 52.2],
              ],
            ],
          },
          properties: { kind: 'crop', name: 'Kukurydza' },
        },
      ],
    },
  });
  queryClient.setQueryData(cropSeasonsKey(sprinkler.id), seasons);
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <CropSeasonsCard sprinkler={sprinkler} now={NOW} />
    </QueryClientProvider>,
    { locale },
  );
  return screen.getByRole('region', { name: locale === 'en' ? 'Crop seasons' : 'Sezony upraw' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

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

  it('marks a season whose crop area is not on the map', async () => {
    const card = await renderCard('watch');
    expect(card).not.toHaveTextContent('is not on the map');
    const onRemovedArea = { ...seasons[1]!, name: 'Buraki 2026', polygon: 'Buraki' };
    queryClient.setQueryData(cropSeasonsKey(buildSprinklerDetail().id), [...seasons, onRemovedArea]);
    expect(
      await within(card).findByText(
        'Crop area Buraki is not on the map: this season is kept as a record and gets no advice',
      ),
    ).toBeVisible();
  });

  it('lets a watcher export the map but not import one', async () => {
    const card = await renderCard('watch');
    expect(within(card).getByRole('button', { name: 'Export map with seasons' })).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Import map with seasons' })).toBeNull();
  });

  it("lists what the server refused in an imported file, where it lies, in the reader's language, and stores nothing", async () => {
    document.cookie = 'csrf_token=token-1; path=/';
    session.signIn(buildUser(), 'access-1');
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
      sent.push(JSON.parse(init.body as string));
      const refusal = {
        code: 'invalid_crop_seasons',
        message: 'The map file’s crop seasons are not valid: nothing was imported',
        issues: [
          {
            path: 'body.features.0.properties.cropSeasons.0.soil.fieldCapacity',
            message: 'A water content is a fraction of the volume from 0 to 1 (0.25 for 25 %)',
          },
        ],
      };
      return new Response(JSON.stringify(refusal), { status: 400, headers: { 'content-type': 'application/json' } });
    });
    const card = await renderCard('control', 'pl');
    const file = new File(['{"type":"FeatureCollection","features":[]}'], 'pole.geojson', {
      type: 'application/geo+json',
    });
    await userEvent.upload(within(card).getByLabelText('Importuj mapę z sezonami'), file);
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Nieprawidłowe sezony upraw w pliku mapy');
    // The contract's English message, said in the reader's language.
    expect(alert).toHaveTextContent(
      'features.0.properties.cropSeasons.0.soil.fieldCapacity: Zawartość wody to 0–100 % objętości',
    );
    expect(sent).toEqual([{ type: 'FeatureCollection', features: [] }]);
    expect(queryClient.getQueryData(cropSeasonsKey(buildSprinklerDetail().id))).toEqual(seasons);
  });

  it('says a file that is not JSON was not imported, without asking the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const card = await renderCard('control', 'pl');
    await userEvent.upload(within(card).getByLabelText('Importuj mapę z sezonami'), new File(['<kml/>'], 'pole.json'));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Plik nie jest plikiem GeoJSON: niczego nie zaimportowano.',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
