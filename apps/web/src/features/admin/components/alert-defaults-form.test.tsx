import { type AlertDefaults, AlertDefaultsSchema } from '@pivot/contracts';
import { buildUser } from '@/test-factories';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { type ApiFailure, onApiFailure } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { renderInApp } from '@/test-utils';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { AlertDefaultsForm } from './alert-defaults-form';

const ADMIN = buildUser({ id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@farm.pl', admin: true });

let defaults: AlertDefaults;
let saved: unknown[];
let refuseNextSave: boolean;

/** Failures the form leaves to the app, which shows them as toasts in the user's language. */
let failures: ApiFailure[];
let stopListening: () => void;
beforeAll(() => {
  stopListening = onApiFailure((failure) => failures.push(failure));
});
afterAll(() => stopListening());

beforeEach(() => {
  defaults = { kinds: ['alarm', 'offline'], channels: ['in_app'] };
  saved = [];
  refuseNextSave = false;
  failures = [];
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(ADMIN, 'access-1');
  // The two calls of the server, their bodies and answers checked against the contract.
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const call = `${init.method ?? 'GET'} ${pathname}`;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    if (call === 'GET /api/admin/alert-defaults/') return json(200, AlertDefaultsSchema.parse(defaults));
    if (call === 'PUT /api/admin/alert-defaults/') {
      if (refuseNextSave) return json(403, { code: 'forbidden', message: 'administrators only' });
      defaults = AlertDefaultsSchema.parse(JSON.parse(String(init.body)));
      saved.push(defaults);
      return json(200, defaults);
    }
    return json(404, { code: 'not_found', message: 'no such call' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

async function renderForm(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <AlertDefaultsForm />
      <Toaster />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

describe('the alert defaults of the admin panel', () => {
  it('show the kinds and channels users get until they choose, and save a change', async () => {
    const user = await renderForm();
    const kinds = await screen.findByRole('group', { name: 'What users are alerted about' });
    expect(within(kinds).getByRole('checkbox', { name: 'Alarm' })).toBeChecked();
    expect(within(kinds).getByRole('checkbox', { name: 'Unexpected stop' })).not.toBeChecked();
    const channels = screen.getByRole('group', { name: 'How users are alerted' });
    expect(within(channels).getByRole('checkbox', { name: 'In the app' })).toBeChecked();
    // Muting is each user's own: the defaults have no machines.
    expect(screen.queryByRole('group', { name: 'Muted machines' })).not.toBeInTheDocument();

    await user.click(within(kinds).getByRole('checkbox', { name: 'Low pressure' }));
    await user.click(within(channels).getByRole('checkbox', { name: 'E-mail' }));
    await user.click(screen.getByRole('button', { name: 'Save the defaults' }));

    expect(await screen.findByText('The alert defaults are saved')).toBeInTheDocument();
    expect(saved).toEqual([{ kinds: ['alarm', 'offline', 'low_pressure'], channels: ['in_app', 'email'] }]);
    expect(
      within(screen.getByRole('group', { name: 'How users are alerted' })).getByRole('checkbox', { name: 'E-mail' }),
    ).toBeChecked();
  });

  it('leave a refused save to the app to tell, and keep what was chosen', async () => {
    refuseNextSave = true;
    const user = await renderForm('pl');
    await user.click(await screen.findByRole('checkbox', { name: 'Niskie ciśnienie' }));
    await user.click(screen.getByRole('button', { name: 'Zapisz ustawienia domyślne' }));
    await vi.waitFor(() => expect(failures.map((failure) => failure.status)).toEqual([403]));
    expect(screen.queryByText('Domyślne alerty zostały zapisane')).not.toBeInTheDocument();
    expect(saved).toEqual([]);
    expect(screen.getByRole('checkbox', { name: 'Niskie ciśnienie' })).toBeChecked();
  });
});
