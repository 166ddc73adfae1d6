import {
  type AutopilotPlan,
  AutopilotPlanSchema,
  type AutopilotSettings,
  AutopilotRulesSchema,
  AutopilotSettingsBodySchema,
  AutopilotSettingsSchema,
  SprinklerDetailSchema,
} from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Locale } from '@/config/locales';
import enAdvice from '@/i18n/locales/en.advice.json';
import plAdvice from '@/i18n/locales/pl.advice.json';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerDetail, buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { AutopilotCard } from './autopilot-card';

const PATH = '/api/sprinkler/7/autopilot/';
const PLAN_PATH = '/api/sprinkler/7/autopilot/plan/';
const START_PATH = '/api/sprinkler/7/autopilot/start/';

/** A plan as the server tells it in English: the decision of now and two coming passes, the second estimated. */
function planOf(changes: Partial<AutopilotPlan> = {}): AutopilotPlan {
  const pass = {
    at: Date.UTC(2026, 5, 8, 20),
    dueAt: Date.UTC(2026, 5, 9, 7),
    late: false,
    areas: ['North', 'East'],
    waterM3: 1234.4,
    waterMm: 12.34,
    zone: { tariff: 'G12', zone: 'night' as const, pricePerKwh: 0.6, currency: 'PLN' },
    energyKwh: null,
    cost: null,
    estimated: false,
    queued: null,
    text: 'Start 22:00, the G12 night zone; latest start 09:00 tomorrow',
  };
  return {
    mode: 'suggest',
    decidedAt: Date.UTC(2026, 5, 8, 12),
    timeZone: 'Europe/Warsaw',
    days: 7,
    now: { kind: 'wait', text: 'Start put off until 22:00, the G12 night zone (0.60 instead of 1.10 PLN/kWh)' },
    passes: [
      pass,
      { ...pass, at: Date.UTC(2026, 5, 11, 20), dueAt: Date.UTC(2026, 5, 12, 7), areas: ['North'], estimated: true },
    ],
    reason: null,
    ...changes,
  };
}

/** The machine's autopilot as the server keeps it; requests and answers go through the contracts' schemas. */
let stored: AutopilotSettings;
let plan: AutopilotPlan;
let puts: unknown[];
let calls: string[];
/** A refusal the server gives the next PUT or start, if set. */
let refuseNext: { status: number; body: unknown } | undefined;
/** The machine's answer to a start: held until the test lets it go. */
let answerStart: Promise<void>;

beforeEach(() => {
  stored = { mode: 'off', rules: AutopilotRulesSchema.parse({}), updatedAt: null };
  plan = planOf();
  puts = [];
  calls = [];
  refuseNext = undefined;
  answerStart = Promise.resolve();
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
    } else if (pathname === START_PATH && method === 'POST') {
      await answerStart;
      if (refuseNext) {
        const refusal = refuseNext;
        refuseNext = undefined;
        return json(refusal.status, refusal.body);
      }
      return json(200, z.encode(SprinklerDetailSchema, buildSprinklerDetail({ id: 7, status: 'front' })));
    } else if (pathname === PLAN_PATH && method === 'GET') {
      return json(200, AutopilotPlanSchema.parse(plan));
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
    expect(calls.filter((call) => !call.startsWith('GET'))).toEqual([]);
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

describe("the autopilot card's plan", () => {
  const passes = (region: HTMLElement) =>
    within(within(region).getByRole('list', { name: /^Coming passes|^Najbliższe przejazdy/ })).getAllByRole('listitem');

  it('shows a watcher what the autopilot will do: the decision of now and each coming pass', async () => {
    stored = { mode: 'suggest', rules: AutopilotRulesSchema.parse({}), updatedAt: Date.UTC(2026, 5, 1) };
    await renderCard('watch');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    expect(await within(region).findByText(/Start put off until 22:00, the G12 night zone/)).toBeVisible();
    expect(within(region).getByRole('heading', { name: 'Coming passes, next 7 days' })).toBeVisible();
    const [first, second] = passes(region);
    // In the plan's zone (Europe/Warsaw), the rules' and the server's texts' zone, whatever the
    // browser's (the tests run in UTC): 20:00 UTC is the 22:00 the decision of now names.
    expect(first).toHaveAccessibleName('08/06/2026, 22:00');
    expect(first).toHaveTextContent('Start 08/06/2026, 22:00');
    expect(first).toHaveTextContent('Latest start 09/06/2026, 09:00');
    expect(first).toHaveTextContent('SectorsNorth, East');
    expect(first).toHaveTextContent('Water12.3 mm · 1,234 m³');
    expect(first).toHaveTextContent('TariffG12 night zone, 0.60 PLN/kWh');
    expect(first).not.toHaveTextContent('estimated');
    expect(second).toHaveTextContent('estimated');
    expect(second).toHaveTextContent('SectorsNorth');
    // No pump power: no energy or cost, and the hint that asks for it.
    expect(region).not.toHaveTextContent('kWh ·');
    expect(within(region).getByText("Set the pump's power in the rules to see the energy and cost.")).toBeVisible();
    expect(within(region).getByText(/^Estimated: planned after an earlier pass/)).toBeVisible();
  });

  it("prices each pass in Polish once the pump's power is set, and says when the autopilot is off", async () => {
    plan = planOf({
      mode: 'off',
      now: {
        kind: 'not_due',
        text: 'Nie pora: pierwszy obszar osiąga próg jutro 21:00; deficyt wody 38 z 52 mm (RAW)',
      },
      passes: planOf().passes.map((pass) => ({ ...pass, energyKwh: 450, cost: 270 })),
    });
    await renderCard('control', 'pl');
    const region = await screen.findByRole('region', { name: 'Co zrobi autopilot' });
    expect(await within(region).findByText(/Nie pora: pierwszy obszar/)).toBeVisible();
    expect(within(region).getByText('Autopilot jest wyłączony: tak wyglądałyby jego sugestie.')).toBeVisible();
    const [first] = passes(region);
    expect(first).toHaveTextContent('Woda12,3 mm · 1234 m³');
    expect(first).toHaveTextContent('TaryfaG12, strefa nocna, 0,60 PLN/kWh');
    expect(first).toHaveTextContent('Energia i koszt450 kWh · ok. 270 PLN');
    expect(within(region).getByText('Koszt liczony po cenie strefy, w której przejazd się zaczyna.')).toBeVisible();
    expect(within(region).queryByText(/Podaj moc pompy/)).toBeNull();
  });

  it('says why there is nothing to plan, in English and in Polish', async () => {
    plan = planOf({
      passes: [],
      reason: 'no_season',
      now: { kind: 'not_due', text: 'Not due: no area has a trigger ahead' },
    });
    await renderCard('control');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    expect(await within(region).findByRole('note')).toHaveTextContent(
      'Nothing to plan: no crop season is running on this machine.',
    );
    expect(within(region).queryByRole('list')).toBeNull();
    // "Not due" would only repeat the reason, less plainly.
    expect(within(region).queryByText(/Not due/)).toBeNull();
  });

  it('shows the next three passes, and the rest on request', async () => {
    const user = userEvent.setup();
    const [pass] = planOf().passes;
    plan = planOf({
      passes: [0, 1, 2, 3].map((day) => ({ ...pass!, at: pass!.at + day * 86_400_000, estimated: day > 0 })),
    });
    await renderCard('control');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    await within(region).findByText(/Start put off until/);
    expect(passes(region)).toHaveLength(3);
    await user.click(within(region).getByRole('button', { name: 'Show all 4 passes' }));
    expect(passes(region)).toHaveLength(4);
    await user.click(within(region).getByRole('button', { name: 'Show fewer' }));
    expect(passes(region)).toHaveLength(3);
  });

  it('has every text in both languages', () => {
    const texts = (catalogue: typeof enAdvice) => catalogue.autopilot.plan;
    for (const reason of ['no_season', 'no_weather_station', 'no_program', 'pace_unknown'] as const) {
      expect(texts(enAdvice).reasons[reason]).toMatch(/^Nothing to plan/);
      expect(texts(plAdvice).reasons[reason]).toMatch(/^Nie ma czego planować/);
    }
    expect(Object.keys(texts(plAdvice)).sort()).toEqual(Object.keys(texts(enAdvice)).sort());
    expect(plAdvice.autopilot.pumpKw.label).toBe('Moc pompy, kW');
  });

  it("asks for the plan again after a save, with the pump's power the farmer set", async () => {
    const user = userEvent.setup();
    await renderCard('control');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    await within(region).findByText(/Start put off until/);
    const asked = () => calls.filter((call) => call === `GET ${PLAN_PATH}`).length;
    expect(asked()).toBe(1);
    const form = screen.getByRole('form', { name: 'Autopilot' });
    await user.click(within(form).getByRole('radio', { name: 'Suggest' }));
    await user.type(within(form).getByLabelText('Pump power, kW'), '45.5');
    plan = planOf({ passes: planOf().passes.map((pass) => ({ ...pass, energyKwh: 450, cost: 270 })) });
    await user.click(within(form).getByRole('button', { name: 'Save autopilot' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(AutopilotSettingsBodySchema.parse(puts[0]).rules.pumpKw).toBe(45.5);
    await vi.waitFor(() => expect(asked()).toBe(2));
    const again = await screen.findByRole('region', { name: 'What the autopilot will do' });
    expect(await within(again).findAllByText(/450 kWh · about 270 PLN/)).toHaveLength(2);
  });
});

describe("the autopilot card's one tap", () => {
  const startPlan = () =>
    planOf({
      now: { kind: 'start', text: 'Start 14:05; latest start 09:00 tomorrow' },
      passes: planOf().passes.map((pass, index) => (index === 0 ? { ...pass, at: Date.UTC(2026, 5, 8, 12) } : pass)),
    });
  const starts = () => calls.filter((call) => call === `POST ${START_PATH}`).length;
  const plansAsked = () => calls.filter((call) => call === `GET ${PLAN_PATH}`).length;

  it('starts the pass the plan says, in one tap, says so and asks for the plan again', async () => {
    const user = userEvent.setup();
    stored = { mode: 'suggest', rules: AutopilotRulesSchema.parse({}), updatedAt: Date.UTC(2026, 5, 1) };
    plan = startPlan();
    let letGo = (): void => undefined;
    answerStart = new Promise((resolve) => {
      letGo = () => resolve();
    });
    await renderCard('control');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    const button = await within(region).findByRole('button', { name: 'Water now as advised' });
    // What one tap sends is said above it: the sectors and the water of the pass of now.
    expect(
      within(region).getByText(
        'Sends the program from the advice to the machine and starts it forward now: sectors North, East, 12.3 mm (1,234 m³). The autopilot stops it after one revolution.',
      ),
    ).toBeVisible();

    await user.click(button);
    // No dialog; while the machine has not confirmed, a second tap sends nothing more.
    await vi.waitFor(() => expect(button).toBeDisabled());
    await user.click(button);
    letGo();
    await vi.waitFor(() =>
      expect(toastStore.get().map((toast) => toast.title)).toEqual(['Watering started as advised']),
    );
    expect(starts()).toBe(1);
    await vi.waitFor(() => expect(plansAsked()).toBe(2));
    // The machine's detail is the one the server answered.
    expect(queryClient.getQueryData(['sprinklers', 'detail', 7])).toMatchObject({ status: 'front' });
  });

  it('says a refusal without claiming a start, and asks for the plan again', async () => {
    const user = userEvent.setup();
    stored = { mode: 'auto', rules: AutopilotRulesSchema.parse({}), updatedAt: Date.UTC(2026, 5, 1) };
    plan = startPlan();
    refuseNext = { status: 409, body: { code: 'already_watering', message: 'The machine is already moving' } };
    await renderCard('control');
    const region = await screen.findByRole('region', { name: 'What the autopilot will do' });
    await user.click(await within(region).findByRole('button', { name: 'Water now as advised' }));
    await vi.waitFor(() => expect(plansAsked()).toBe(2));
    expect(starts()).toBe(1);
    expect(toastStore.get().map((toast) => toast.title)).not.toContain('Watering started as advised');
  });

  it('is offered in Polish, and only to a user with control, while the autopilot (not off) would start now', async () => {
    stored = { mode: 'suggest', rules: AutopilotRulesSchema.parse({}), updatedAt: Date.UTC(2026, 5, 1) };
    plan = startPlan();
    const polish = await renderCard('control', 'pl');
    const region = await screen.findByRole('region', { name: 'Co zrobi autopilot' });
    expect(await within(region).findByRole('button', { name: 'Nawadniaj teraz wg porady' })).toBeEnabled();
    expect(
      within(region).getByText(/^Wysyła do maszyny program z porady .*sektory North, East, 12,3 mm/),
    ).toBeVisible();
    polish.unmount();
    queryClient.clear();

    const watched = await renderCard('watch');
    await screen.findByText('Start 14:05; latest start 09:00 tomorrow');
    expect(screen.queryByRole('button', { name: 'Water now as advised' })).toBeNull();
    watched.unmount();
    queryClient.clear();

    // A wait, or the autopilot off: nothing to start now.
    plan = planOf();
    const waiting = await renderCard('control');
    await screen.findByText(/Start put off until 22:00/);
    expect(screen.queryByRole('button', { name: 'Water now as advised' })).toBeNull();
    waiting.unmount();
    queryClient.clear();
    plan = { ...startPlan(), mode: 'off' };
    await renderCard('control');
    await screen.findByText('Start 14:05; latest start 09:00 tomorrow');
    expect(screen.queryByRole('button', { name: 'Water now as advised' })).toBeNull();
    expect(starts()).toBe(0);
  });

  it('has its texts in both languages', () => {
    expect(Object.keys(plAdvice.autopilot.waterNow).sort()).toEqual(Object.keys(enAdvice.autopilot.waterNow).sort());
    expect(plAdvice.autopilot.waterNow.button).toBe('Nawadniaj teraz wg porady');
    expect(enAdvice.autopilot.waterNow.button).toBe('Water now as advised');
  });
});
