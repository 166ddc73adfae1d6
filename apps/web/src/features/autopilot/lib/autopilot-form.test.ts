import { AutopilotRulesSchema, type AutopilotSettings } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { bodyOf, formOf, serverErrors, withTariff } from './autopilot-form';

const polish = (value: number) => String(value).replace('.', ',');
const settingsOf = (rules: unknown, mode: AutopilotSettings['mode'] = 'suggest'): AutopilotSettings => ({
  mode,
  rules: AutopilotRulesSchema.parse(rules),
  updatedAt: 1,
});

describe("the autopilot's form", () => {
  it('gives back the stored settings unchanged, numbers typed with a Polish comma', () => {
    const settings = settingsOf({
      allowedHours: [{ days: [6, 7], start: '06:00', end: '24:00' }],
      tariff: {
        name: 'Farm contract',
        zones: [{ zone: 'peak', pricePerKwh: 1.35, windows: [{ start: '17:00', end: '21:00' }] }],
        otherHours: { zone: 'off_peak', pricePerKwh: 0.65 },
      },
      rainSkip: { mm: 7.5, withinHours: 12 },
      wind: null,
      allowance: { unit: 'm3', amount: 120000 },
      pumpGroup: { id: 'Well 2', maxAtOnce: 3 },
      pumpKw: 37.5,
    });
    const form = formOf(settings, polish);
    expect(form).toMatchObject({
      tariffChoice: 'stored',
      prices: ['1,35', '0,65'],
      rainSkip: { mm: '7,5' },
      pumpKw: '37,5',
    });
    expect(bodyOf(form, 'NaN', 'pl')).toEqual({ ok: true, body: { mode: 'suggest', rules: settings.rules } });
  });

  it("takes the pump's power as typed, none when left empty", () => {
    const form = formOf(settingsOf({}), polish);
    expect(form.pumpKw).toBe('');
    const none = bodyOf(form, 'NaN', 'pl');
    expect(none.ok && none.body.rules.pumpKw).toBeNull();
    const typed = bodyOf({ ...form, pumpKw: ' 45,5 ' }, 'NaN', 'pl');
    expect(typed.ok && typed.body.rules.pumpKw).toBe(45.5);
    expect(bodyOf({ ...form, pumpKw: 'duża' }, 'Wpisz liczbę', 'pl')).toEqual({
      ok: false,
      errors: { pumpKw: 'Wpisz liczbę' },
    });
    const zero = bodyOf({ ...form, pumpKw: '0' }, 'Wpisz liczbę', 'pl');
    expect(!zero.ok && Object.keys(zero.errors)).toEqual(['pumpKw']);
  });

  it('takes a preset with its prices, and the stored tariff back', () => {
    const settings = settingsOf({ tariff: null });
    const g12 = withTariff(formOf(settings, polish), 'C12A', null, polish);
    expect(g12.prices).toEqual(['1,25', '0,75']);
    const body = bodyOf({ ...g12, prices: ['1,5', '0,75'] }, 'NaN', 'pl');
    expect(body.ok && body.body.rules.tariff).toMatchObject({ name: 'C12a', zones: [{ pricePerKwh: 1.5 }] });
    expect(withTariff(g12, 'none', null, polish)).toMatchObject({ tariff: null, prices: [] });
  });

  it("names each field's problem by the rules' path, the server's too", () => {
    const form = formOf(settingsOf({}), polish);
    const wrong = bodyOf(
      {
        ...form,
        windows: [{ days: [], start: '07:00', end: '07:00' }],
        frost: { on: true, minC: 'zimno' },
        pumpGroup: { on: true, id: '', maxAtOnce: '2' },
      },
      'Wpisz liczbę',
      'pl',
    );
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && Object.keys(wrong.errors).sort()).toEqual([
      'allowedHours.0',
      'allowedHours.0.days',
      'frost.minC',
      'pumpGroup.id',
    ]);
    expect(!wrong.ok && wrong.errors['frost.minC']).toBe('Wpisz liczbę');
    expect(!wrong.ok && wrong.errors['allowedHours.0']).toBe(
      'Okno nie może zaczynać się i kończyć o tej samej godzinie',
    );
    expect(
      serverErrors([
        { path: 'body.rules.wind.maxMs', message: 'Za dużo' },
        { path: 'body.mode', message: 'Zły' },
      ]),
    ).toEqual({
      'wind.maxMs': 'Za dużo',
      mode: 'Zły',
    });
  });
});
