import {
  type AutopilotSettings,
  AutopilotRulesSchema,
  AutopilotSettingsBodySchema,
  AutopilotSettingsSchema,
} from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { AutopilotCard } from './autopilot-card';

const PATH = '/api/sprinkler/7/autopilot/';

/** The machine's autopilot as the server keeps it; requests and answers go through the contracts' schemas. */
let stored: AutopilotSettings;
let puts: unknown[];
let calls: string[];
/** A refusal the server gives the next PUT, if set. */
let refuseNext: { status: number; body: unknown } | undefined;

beforeEach(() => {
  stored = { mode: 'off', rules: AutopilotRulesSchema.parse({}), updatedAt: null };
  puts = [];
  calls = [];
  refuseNext = undefined;
  document.cookie = 'csrf_token=token-1; path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const method = init.method ?? 'GET';
    calls.push(`${method} ${pathname}`);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (pathname === PATH && method === 'PUT') {
      const body = JSON.parse(init.body as string) as unknown;
      puts.push(body);
      if (refuseNext) {
        const refusal = refuseNext;
        refuseNext = undefined;
        return json(refusal.status, refusal.body);
      }
      const parsed = AutopilotSettingsBodySchema.parse(body);
      stored = { ...parsed, updatedAt: Date.UTC(2026, 5, 7, 12) };
    } else if (pathname !== PATH || method !== 'GET') {
      return json(404, { code: 'not_found', message: 'no such call' });
    }
    return json(200, AutopilotSettingsSchema.parse(stored));
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

async function renderCard(level: 'watch' | 'control', locale: Locale = 'en') {
  session.signIn(buildUser(), 'access-1');
  return renderInApp(
    <QueryClientProvider client={queryClient}>
      <AutopilotCard sprinkler={{ id: 7, level }} />
    </QueryClientProvider>,
    { locale },
  );
}

describe('the autopilot card', () => {
  it('shows a watcher the mode and rules, read-only, and sends nothing', async () => {
    stored = {
      mode: 'suggest',
      rules: AutopilotRulesSchema.parse({ wind: { maxMs: 12 }, pumpGroup: { id: 'Well 1', maxAtOnce: 2 } }),
      updatedAt: Date.UTC(2026, 5, 1),
    };
    await renderCard('watch');
    const form = await screen.findByRole('form', { name: 'Autopilot' });
    expect(within(form).getByRole('note')).toHaveTextContent('You can only watch this machine');
    expect(within(form).getByRole('radio', { name: 'Suggest' })).toBeChecked();
    expect(within(form).getByRole('radio', { name: 'Auto' })).toBeDisabled();
    expect(within(form).getByText(/you start the machine yourself/)).toBeVisible();
    expect(within(form).getByLabelText('Above, m/s')).toHaveValue('12');
    expect(within(form).getByLabelText('Above, m/s')).toBeDisabled();
    expect(within(form).getByLabelText('Pump or well')).toHaveValue('Well 1');
    expect(within(form).queryByRole('button', { name: 'Save autopilot' })).toBeNull();
    expect(within(form).queryByRole('button', { name: 'Add a window' })).toBeNull();
    expect(calls).toEqual([`GET ${PATH}`]);
  });

  it('saves the mode and the rules a farmer set, as the body the contracts read', async () => {
    const user = userEvent.setup();
    await renderCard('control');
    const form = await screen.findByRole('form', { name: 'Autopilot' });
    expect(within(form).getByRole('radio', { name: 'Off' })).toBeChecked();

    await user.click(within(form).getByRole('radio', { name: 'Auto' }));
    expect(within(form).getByText(/any command of yours turns it back to Suggest/)).toBeVisible();
    // Weekdays only, 22:00 to 06:00.
    const window = within(form).getByRole('group', { name: 'Window 1' });
    for (const day of ['Sat', 'Sun']) await user.click(within(window).getByLabelText(day));
    await user.clear(within(window).getByLabelText('From'));
    await user.type(within(window).getByLabelText('From'), '22:00');
    await user.clear(within(window).getByLabelText('To'));
    await user.type(within(window).getByLabelText('To'), '06:00');
    // The G12 preset, its night price changed.
    await user.selectOptions(within(form).getByLabelText('Electricity tariff'), 'G12');
    expect(within(form).getByText(/The presets are examples/)).toBeVisible();
    const night = within(form).getByLabelText('night zone, PLN/kWh');
    expect(night).toHaveValue('0.6');
    await user.clear(night);
    await user.type(night, '0.55');
    // No wind limit; a season allowance in mm.
    await user.click(within(form).getByLabelText('Pause in strong wind'));
    await user.selectOptions(within(form).getByLabelText("The season's water allowance"), 'mm');
    await user.type(within(form).getByLabelText('Amount'), '250');

    await user.click(within(form).getByRole('button', { name: 'Save autopilot' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    const body = AutopilotSettingsBodySchema.parse(puts[0]);
    expect(body.mode).toBe('auto');
    expect(body.rules).toMatchObject({
      allowedHours: [{ days: [1, 2, 3, 4, 5], start: '22:00', end: '06:00' }],
      tariff: { name: 'G12', zones: [{ zone: 'night', pricePerKwh: 0.55 }], otherHours: { pricePerKwh: 1.1 } },
      rainSkip: { mm: 10, withinHours: 24 },
      wind: null,
      frost: { minC: 2 },
      allowance: { unit: 'mm', amount: 250 },
      pumpGroup: null,
    });
    await vi.waitFor(() => expect(toastStore.get().map((toast) => toast.title)).toEqual(['Autopilot saved']));
    // The form starts again from what was stored.
    const again = await screen.findByRole('form', { name: 'Autopilot' });
    expect(within(again).getByRole('radio', { name: 'Auto' })).toBeChecked();
    expect(within(again).getByLabelText('night zone, PLN/kWh')).toHaveValue('0.55');
  });

  it('says what is wrong beside the field, in Polish, before sending and when the server refuses', async () => {
    const user = userEvent.setup();
    await renderCard('control', 'pl');
    const form = await screen.findByRole('form', { name: 'Autopilot' });
    const window = within(form).getByRole('group', { name: 'Okno 1' });
    await user.clear(within(window).getByLabelText('Od'));
    await user.type(within(window).getByLabelText('Od'), '25:00');
    await user.clear(within(form).getByLabelText('Powyżej, m/s'));
    await user.type(within(form).getByLabelText('Powyżej, m/s'), 'dużo');
    await user.click(within(form).getByRole('button', { name: 'Zapisz autopilota' }));
    expect(within(form).getByText('Wpisz liczbę')).toBeVisible();
    expect(within(window).getByText('Wpisz godzinę, np. 22:00')).toBeVisible();
    expect(puts).toEqual([]);

    // A refusal of the server's own is shown on its field.
    await user.clear(within(window).getByLabelText('Od'));
    await user.type(within(window).getByLabelText('Od'), '21:00');
    await user.clear(within(form).getByLabelText('Powyżej, m/s'));
    await user.type(within(form).getByLabelText('Powyżej, m/s'), '12');
    refuseNext = {
      status: 400,
      body: {
        code: 'validation_error',
        message: 'Błąd zapytania - spróbuj ponownie',
        issues: [{ path: 'body.rules.wind.maxMs', message: 'Liczba może wynosić najwyżej 11' }],
      },
    };
    await user.click(within(form).getByRole('button', { name: 'Zapisz autopilota' }));
    expect(await within(form).findByText('Liczba może wynosić najwyżej 11')).toBeVisible();
    expect(puts).toHaveLength(1);
  });
});
