import type { InvitationPreview } from '@pivot/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Locale } from '@/config/locales';
import { type ApiFailure, onApiFailure } from '@/lib/api-client';
import { activateWholeCatalogue } from '@/test-utils';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { InvitationForm } from './invitation-form';

const GOOD_PASSWORD = 'Corn-field-2026!';

type Answer = { status: number; body?: unknown };

/** What the preview answers, by token; the acceptance's answers, in turn, and the calls made. */
let previews: Record<string, Answer[]>;
let acceptances: Answer[];
let calls: { call: string; body?: unknown }[];
let failures: ApiFailure[];
let stopListening: () => void;

const preview = (overrides: Partial<InvitationPreview> = {}): Answer => ({
  status: 200,
  body: {
    farmName: 'Green Acres',
    email: 'nowa.osoba@farm.pl',
    role: 'manager',
    accountExists: false,
    ...overrides,
  } satisfies InvitationPreview,
});
const refused = (status: number, code: string, more: Record<string, unknown> = {}): Answer => ({
  status,
  body: { code, message: code, ...more },
});

beforeEach(() => {
  previews = {};
  acceptances = [];
  calls = [];
  failures = [];
  stopListening = onApiFailure((failure) => failures.push(failure));
  document.cookie = 'csrf_token=token-1; path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    const call = `${init.method ?? 'GET'} ${pathname}`;
    const body = init.body === undefined ? undefined : JSON.parse(String(init.body));
    calls.push(body === undefined ? { call } : { call, body });
    const json = ({ status, body: answer }: Answer) =>
      new Response(answer === undefined ? null : JSON.stringify(answer), { status });
    if (call === 'GET /api/invitation/5/') {
      const answers = previews[searchParams.get('token') ?? ''] ?? [];
      return json(answers.length > 1 ? answers.shift()! : (answers[0] ?? refused(400, 'invalid_link')));
    }
    if (call === 'POST /api/invitation/5/accept/') return json(acceptances.shift()!);
    if (call === 'GET /api/health') return json({ status: 200, body: { status: 'ok' } });
    return json(refused(401, 'invalid_token'));
  });
});

afterEach(() => {
  stopListening();
  vi.unstubAllGlobals();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

/** Where the app went: the page's path, shown as the login page would be. */
function LoginPage() {
  return <p>login page at {useLocation().pathname}</p>;
}

async function openInvitation(path: string, locale: Locale = 'en') {
  await activateWholeCatalogue(locale);
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/invitation/:id/:token" element={<InvitationForm />} />
        <Route path="/en/invitation/:id/:token" element={<InvitationForm />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/en/login" element={<LoginPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const acceptCalls = () => calls.filter(({ call }) => call === 'POST /api/invitation/5/accept/');

describe('the invitation page', () => {
  it('signs up a new person with their names and a password that keeps the rules, then sends them to sign in', async () => {
    previews['fresh-token'] = [preview()];
    acceptances = [
      refused(400, 'password_rejected', { newPassword: ['The server wants a longer password'] }),
      { status: 204 },
    ];
    const user = await openInvitation('/en/invitation/5/fresh-token');

    expect(await screen.findByText('Green Acres invites you as a manager')).toBeInTheDocument();
    expect(screen.getByText('manager')).toBeInTheDocument();
    // The address is shown, not edited: the invitation is for it.
    expect(screen.getByRole('term')).toHaveTextContent('Invited email');
    expect(screen.getByRole('definition')).toHaveTextContent('nowa.osoba@farm.pl');
    expect(screen.queryByRole('textbox', { name: /email/i })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Confirm with your password')).not.toBeInTheDocument();
    // The password's rules show as they do when a password is set from an activation link.
    expect(screen.getByText('at least 8 characters')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
    expect(acceptCalls()).toEqual([]);

    await user.type(screen.getByLabelText('First name'), 'Nowa');
    await user.type(screen.getByLabelText('Last name'), 'Osoba');
    await user.type(screen.getByLabelText('New password'), GOOD_PASSWORD);
    await user.type(screen.getByLabelText('Repeat the new password'), 'Corn-field-2026?');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(screen.getByText('Passwords must be the same')).toBeInTheDocument();
    expect(acceptCalls()).toEqual([]);

    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('Repeat the new password'), GOOD_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    // The server's own problems with the password land on its field, not in a toast.
    expect(await screen.findByText('The server wants a longer password')).toBeInTheDocument();
    expect(failures).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText('login page at /en/login')).toBeInTheDocument();
    expect(acceptCalls().map(({ body }) => body)).toEqual([
      {
        token: 'fresh-token',
        first_name: 'Nowa',
        last_name: 'Osoba',
        newPassword: GOOD_PASSWORD,
        repeatNewPassword: GOOD_PASSWORD,
      },
      {
        token: 'fresh-token',
        first_name: 'Nowa',
        last_name: 'Osoba',
        newPassword: GOOD_PASSWORD,
        repeatNewPassword: GOOD_PASSWORD,
      },
    ]);
    expect(toastStore.get()).toMatchObject([
      { variant: 'success', title: 'You joined Green Acres', message: 'Sign in to see its machines.' },
    ]);
  });

  it('takes the password of an account the address has, warning of a wrong one by its field, in Polish', async () => {
    previews['known-token'] = [preview({ farmName: 'Zielone Pola', role: 'member', accountExists: true })];
    acceptances = [refused(403, 'invalid_credentials'), { status: 204 }];
    const user = await openInvitation('/invitation/5/known-token', 'pl');

    expect(await screen.findByText('Zielone Pola zaprasza Cię jako członka')).toBeInTheDocument();
    expect(screen.getByText('członek')).toBeInTheDocument();
    expect(screen.getByRole('term')).toHaveTextContent('Zaproszony adres email');
    expect(screen.getByRole('definition')).toHaveTextContent('nowa.osoba@farm.pl');
    expect(screen.queryByLabelText('Imię')).not.toBeInTheDocument();
    const password = screen.getByLabelText('Potwierdź swoim hasłem');

    await user.click(screen.getByRole('button', { name: 'Przyjmij zaproszenie' }));
    expect(password).toHaveAccessibleDescription('To pole jest wymagane');
    expect(acceptCalls()).toEqual([]);

    await user.type(password, 'Not-the-password-1');
    await user.click(screen.getByRole('button', { name: 'Przyjmij zaproszenie' }));
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('To nie jest hasło tego konta. Spróbuj ponownie albo ustaw nowe.');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('To nie jest hasło tego konta. Spróbuj ponownie albo ustaw nowe.');
    expect(failures).toEqual([]);

    await user.clear(password);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(password, GOOD_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Przyjmij zaproszenie' }));
    expect(await screen.findByText('login page at /login')).toBeInTheDocument();
    expect(acceptCalls().map(({ body }) => body)).toEqual([
      { token: 'known-token', password: 'Not-the-password-1' },
      { token: 'known-token', password: GOOD_PASSWORD },
    ]);
    expect(toastStore.get()).toMatchObject([
      {
        variant: 'success',
        title: 'Dołączono do gospodarstwa Zielone Pola',
        message: 'Zaloguj się, aby zobaczyć jego maszyny.',
      },
    ]);
  });

  it('says a link that no longer works is to be asked for again, and leads to the login', async () => {
    await openInvitation('/en/invitation/5/used-token');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation link no longer works: ask the farm for a new one.',
    );
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/en/login');
    expect(screen.queryByRole('button', { name: 'Accept the invitation' })).not.toBeInTheDocument();
    // The page says it; no toast says it again.
    expect(failures).toEqual([]);
  });

  it('does not ask the server about a link cut short', async () => {
    await openInvitation('/invitation/not-a-number/token', 'pl');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Ten link z zaproszeniem już nie działa: poproś gospodarstwo o nowy.',
    );
    expect(screen.getByRole('link', { name: 'Przejdź do logowania' })).toHaveAttribute('href', '/login');
    expect(calls).toEqual([]);
  });

  it('tells a link used meanwhile, when accepting, the same way', async () => {
    previews['race-token'] = [preview({ accountExists: true })];
    acceptances = [refused(400, 'invalid_link')];
    const user = await openInvitation('/en/invitation/5/race-token');
    await user.type(await screen.findByLabelText('Confirm with your password'), GOOD_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation link no longer works');
    expect(failures).toEqual([]);
  });

  it('offers to load the invitation again after a failure, whose toast the app shows', async () => {
    const serverFault = { status: 500, body: { code: 'internal_error', message: 'boom' } };
    // Twice: the client asks a read again once on a 5xx.
    previews['flaky-token'] = [serverFault, serverFault, preview()];
    const user = await openInvitation('/en/invitation/5/flaky-token');
    expect(await screen.findByRole('alert')).toHaveTextContent('The invitation could not be loaded.');
    expect(failures.map((failure) => failure.status)).toEqual([500]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Green Acres invites you as a manager')).toBeInTheDocument();
  });
});
