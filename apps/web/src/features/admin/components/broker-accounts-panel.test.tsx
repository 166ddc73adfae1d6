import { type BrokerAccountsStatus, BrokerAccountsStatusSchema } from '@pivot/contracts';
import { buildUser } from '@/test-factories';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { renderInApp } from '@/test-utils';
import { BrokerAccountsPanel } from './broker-accounts-panel';

const ADMIN = buildUser({ id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@farm.pl', admin: true });

const idle = (lastCheck: BrokerAccountsStatus['lastCheck']): BrokerAccountsStatus => ({
  managed: true,
  running: false,
  progress: null,
  lastCheck,
});

/** What the server answers to each status request, in turn; the last one stays. */
let answers: BrokerAccountsStatus[];
let restoresAsked: number;

beforeEach(() => {
  restoresAsked = 0;
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(ADMIN, 'access-1');
  // The two calls of the server, their answers checked against the contract.
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const call = `${init.method ?? 'GET'} ${pathname}`;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    if (call === 'GET /api/device/accounts/') {
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      return json(200, BrokerAccountsStatusSchema.parse(answer));
    }
    if (call === 'POST /api/device/accounts/restore/') {
      restoresAsked += 1;
      return json(202, BrokerAccountsStatusSchema.parse({ ...idle(null), running: true }));
    }
    if (call === 'GET /api/device/') return json(200, []);
    return json(404, { code: 'not_found', message: 'no such call' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function renderPanel(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <BrokerAccountsPanel />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

describe('the broker accounts of the controllers section', () => {
  it('restore on the button, showing how far they have come and what they found', async () => {
    answers = [
      idle({ at: 1, missing: 0, restored: 0, unrestorable: 0 }),
      { managed: true, running: true, progress: { done: 120, total: 900 }, lastCheck: null },
      idle({ at: 2, missing: 900, restored: 899, unrestorable: 1 }),
    ];
    const user = await renderPanel();
    expect(await screen.findByRole('status')).toHaveTextContent('Every controller has its account on the broker');
    await user.click(screen.getByRole('button', { name: 'Restore broker accounts' }));
    expect(restoresAsked).toBe(1);
    expect(screen.getByRole('button', { name: 'Restore broker accounts' })).toBeDisabled();
    expect(await screen.findByText("Making the broker's accounts again: 120 of 900")).toBeInTheDocument();
    expect(
      await screen.findByText(
        "The broker had lost 900 accounts: 899 made again with the controllers' own secrets, 1 need a new secret",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore broker accounts' })).toBeEnabled();
  });

  it('speak Polish', async () => {
    answers = [idle(null)];
    await renderPanel('pl');
    expect(await screen.findByRole('button', { name: 'Odtwórz konta na brokerze' })).toBeEnabled();
  });

  it('show nothing where the broker asks the server at each connection', async () => {
    answers = [{ ...idle(null), managed: false }];
    await renderPanel();
    await vi.waitFor(() => expect(queryClient.getQueryData(['admin', 'broker-accounts'])).toBeTruthy());
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
