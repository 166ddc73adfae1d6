import type { CropSeason } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  CUSTOM,
  type SeasonForm,
  chooseSoil,
  emptySeasonForm,
  formToSeason,
  seasonToForm,
  serverErrors,
} from './season-form';
import { updateCropSeasons } from '../api/update-crop-seasons';
import { activateLocale } from '@/i18n/i18n';
import { replaceSeason } from './season-year';

const tableSeason: CropSeason = {
  name: 'Kukurydza 2026',
  polygon: 'Kukurydza',
  crop: 'maize-grain',
  emergence: '05.05.2026',
  soil: 'loamy-sand',
  p: 0.5,
  efficiency: 0.85,
};

const customSeason: CropSeason = {
  name: 'Cebula',
  polygon: null,
  crop: { kc: [0.7, 1.05, 0.75], stages: [15, 25, 70, 40], rootDepth: [0.15, 0.3], p: 0.3 },
  emergence: '20.04.2026',
  soil: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
};

describe('the crop season form', () => {
  it('gives back the API body it was filled from, a table crop and soil as keys', () => {
    const form = seasonToForm(tableSeason);
    expect(form).toMatchObject({ area: 'Kukurydza', crop: 'maize-grain', soil: 'loamy-sand', p: '0.5' });
    // Percent on the page, a fraction in the API; the class's defaults shown.
    expect(form).toMatchObject({ efficiency: '85', fieldCapacity: '15', wiltingPoint: '6.5' });
    expect(formToSeason(form)).toEqual({ ok: true, season: tableSeason });
  });

  it('gives back a custom crop and soil, the whole circle as null, and leaves out the optional values not typed', () => {
    const form = seasonToForm(customSeason);
    expect(form).toMatchObject({ area: '', crop: CUSTOM, soil: CUSTOM, kcMid: '1.05', stageLate: '40', p: '' });
    expect(formToSeason(form)).toEqual({ ok: true, season: customSeason });
  });

  it('writes decimals as the page does, and reads them back', () => {
    const form = seasonToForm(customSeason, ',');
    expect(form).toMatchObject({ kcMid: '1,05', rootMin: '0,15', fieldCapacity: '25' });
    expect(chooseSoil(form, 'loamy-sand', ',')).toMatchObject({ wiltingPoint: '6,5' });
    expect(formToSeason(form)).toEqual({ ok: true, season: customSeason });
  });

  it('reads Polish decimal commas and percentages', () => {
    const form: SeasonForm = {
      ...emptySeasonForm('01.05.2026'),
      name: 'Ziemniaki',
      crop: 'potato',
      soil: CUSTOM,
      fieldCapacity: '28,5',
      wiltingPoint: '12',
      efficiency: '90',
      p: '0,4',
    };
    expect(formToSeason(form)).toEqual({
      ok: true,
      season: {
        name: 'Ziemniaki',
        polygon: null,
        crop: 'potato',
        emergence: '01.05.2026',
        soil: { fieldCapacity: 0.285, wiltingPoint: 0.12 },
        p: 0.4,
        efficiency: 0.9,
      },
    });
  });

  it('shows a texture class’s defaults, and typing over them is the form’s business, not the choice’s', () => {
    const form = chooseSoil(emptySeasonForm('01.05.2026'), 'silty-clay-loam');
    expect(form).toMatchObject({ soil: 'silty-clay-loam', fieldCapacity: '33.5', wiltingPoint: '20.5' });
    expect(chooseSoil(form, CUSTOM)).toMatchObject({ soil: CUSTOM, fieldCapacity: '33.5' });
  });

  it('marks the fields the contract refuses, by message key', () => {
    const form = {
      ...seasonToForm(customSeason),
      name: ' ',
      kcIni: 'abc',
      emergence: '31.02.2026',
      efficiency: '120',
    };
    expect(formToSeason(form)).toEqual({ ok: false, errors: { kcIni: 'number' } });
    const second = formToSeason({ ...form, kcIni: '0.7', fieldCapacity: '10', wiltingPoint: '20' });
    expect(second).toEqual({
      ok: false,
      errors: { name: 'name', emergence: 'date', fieldCapacity: 'soilOrder', efficiency: 'efficiency' },
    });
  });

  it('says zod’s own messages in the page’s language, as the server does', async () => {
    // A season with a key the contract does not know: the check before sending refuses it with zod's message.
    const seasons = [{ ...tableSeason, irrigated: true } as CropSeason];
    await activateLocale('pl');
    expect(await updateCropSeasons(1, 2026, seasons)).toEqual({
      ok: false,
      issues: [{ path: 'body.0', message: 'Nierozpoznane klucze: "irrigated"' }],
    });
    await activateLocale('en');
    expect(await updateCropSeasons(1, 2026, seasons)).toEqual({
      ok: false,
      issues: [{ path: 'body.0', message: 'Unrecognized key: "irrigated"' }],
    });
  });

  it('puts the server’s issues of the edited season on its fields and the others aside', () => {
    const issues = [
      { path: 'body.1.polygon', message: 'This crop area already has a season in this year' },
      { path: 'body.1.crop', message: 'stages: A growth stage lasts at least 1 day' },
      { path: 'body.1.soil.wiltingPoint', message: 'A water content is a fraction of the volume from 0 to 1' },
      { path: 'body.0.name', message: 'Season names must differ within a year' },
    ];
    expect(serverErrors(issues, 1)).toEqual({
      fields: { area: 'areaTaken', stageIni: 'stage', wiltingPoint: 'waterContent' },
      other: ['Season names must differ within a year'],
    });
  });

  it('sends every season of the years a change touches, and the viewed year even when it ends empty', () => {
    const lastYear = { ...tableSeason, emergence: '05.05.2025' };
    const seasons = [lastYear, customSeason, tableSeason];
    const moved = { ...customSeason, emergence: '20.04.2027' };
    expect(replaceSeason(seasons, 2026, customSeason, moved)).toEqual({ body: [tableSeason, moved], index: 1 });
    expect(replaceSeason(seasons, 2025, lastYear, null)).toEqual({ body: [], index: -1 });
  });
});
