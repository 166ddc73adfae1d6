import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { credentialBytes, renderInApp, stubWebAuthn } from '@/test-utils';
import { LoginForm } from './login-form';

const USER = buildUser({ email: 'jan@farm.pl' });

const PASSKEY_OPTIONS = {
  challenge: 'c2lnbi1pbi1jaGFsbGVuZ2U',
  rpId: 'localhost',
  allowCredentials: [{ id: 'Y3JlZGVudGlhbA', type: 'public-key', transports: ['internal'] }],
  userVerification: 'preferred',
};

/** A passkey's answer as a browser's PublicKeyCredential holds it. */
const SIGNED = {
  id: 'Y3JlZGVudGlhbA',
  rawId: credentialBytes('credential'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    authenticatorData: credentialBytes('data'),
    clientDataJSON: credentialBytes('client'),
    signature: credentialBytes('signature'),
    userHandle: null,
  },
  getClientExtensionResults: () => ({}),
};

/** What the second step answers, in turn, and the bodies it was sent. */
let secondStepAnswers: { status: number; body: unknown }[];
let secondStepBodies: unknown[];
/** What the login's challenge says the account can answer with. */
let loginMethods: string[];
/** The bodies the passkey prompt's options were asked with. */
let passkeyOptionsAsked: unknown[];

beforeEach(() => {
  session.signOut();
  secondStepBodies = [];
  loginMethods = ['code'];
  passkeyOptionsAsked = [];
  document.cookie = 'csrf_token=token-1; path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const call = `${init.method ?? 'GET'} ${pathname}`;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    if (call === 'POST /api/user/login/') {
      return json(200, { secondFactor: { challenge: 'challenge-1', expiresInSeconds: 300, methods: loginMethods } });
    }
    if (call === 'POST /api/user/login/passkey/') {
      passkeyOptionsAsked.push(JSON.parse(String(init.body)));
      return json(200, { options: PASSKEY_OPTIONS });
    }
    if (call === 'POST /api/user/login/second-factor/') {
      secondStepBodies.push(JSON.parse(String(init.body)));
      const answer = secondStepAnswers.shift()!;
      return json(answer.status, answer.body);
    }
    return json(401, { code: 'invalid_token', message: 'no session' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut();
});

async function signInWithPassword(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(<LoginForm />, { locale, path: '/login' });
  await user.type(screen.getByLabelText('Email'), 'jan@farm.pl');
  await user.type(screen.getByLabelText(locale === 'en' ? 'Password' : 'Hasło'), 'Secret-123');
  await user.click(screen.getByRole('button', { name: locale === 'en' ? 'Sign in' : 'Zaloguj się' }));
  return user;
}

const incorrect = { status: 403, body: { code: 'second_factor_incorrect', message: 'Wrong code' } };
const expired = { status: 401, body: { code: 'second_factor_challenge_expired', message: 'Expired' } };
const signedIn = { status: 200, body: { user: USER, access: 'access-1' } };

describe('the login form of an account with two-step sign-in', () => {
  it('asks for the code in place of the password, shows a wrong one by its field, and signs in with the right one', async () => {
    secondStepAnswers = [incorrect, signedIn];
    const user = await signInWithPassword();
    const code = await screen.findByRole('textbox', { name: 'Code from the app' });
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(session.get().status).toBe('signed-out');

    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(code).toHaveAccessibleDescription('Enter the 6 digits the app shows');
    expect(secondStepBodies).toEqual([]);

    await user.type(code, '6');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/The code is wrong, already used, or out of time/)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(screen.getByLabelText('Remember this browser for 30 days'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(session.get().status).toBe('signed-in'));
    expect(secondStepBodies).toEqual([
      { challenge: 'challenge-1', code: '123456', rememberBrowser: false },
      { challenge: 'challenge-1', code: '654321', rememberBrowser: true },
    ]);
    expect(session.accessToken()).toBe('access-1');
  });

  it('takes a recovery code instead', async () => {
    secondStepAnswers = [signedIn];
    const user = await signInWithPassword();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    const recovery = screen.getByRole('textbox', { name: 'Recovery code' });
    expect(recovery).toHaveFocus();
    await user.type(recovery, 'K7QM-2XCV-9TNP-4HWE');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(session.get().status).toBe('signed-in'));
    expect(secondStepBodies).toEqual([
      { challenge: 'challenge-1', recoveryCode: 'k7qm2xcv9tnp4hwe', rememberBrowser: false },
    ]);
  });

  it('asks for the password again, saying why, once the challenge has run out', async () => {
    secondStepAnswers = [expired];
    const user = await signInWithPassword();
    await user.type(await screen.findByRole('textbox', { name: 'Code from the app' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The sign-in took too long or was tried too often. Enter your password again.',
    );
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveValue('jan@farm.pl');
    expect(session.get().status).toBe('signed-out');
  });

  it('goes back to the password on request, and speaks Polish', async () => {
    const user = await signInWithPassword('pl');
    expect(await screen.findByRole('textbox', { name: 'Kod z aplikacji' })).toBeInTheDocument();
    expect(screen.getByLabelText('Zapamiętaj tę przeglądarkę na 30 dni')).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Wróć do hasła' }));
    expect(screen.getByLabelText('Hasło')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the login form of an account with a passkey', () => {
  it('offers the passkey beside the code, and signs in with the answer of the browser’s prompt', async () => {
    loginMethods = ['code', 'passkey'];
    secondStepAnswers = [signedIn];
    stubWebAuthn({ get: async () => SIGNED });
    const user = await signInWithPassword();
    expect(await screen.findByRole('textbox', { name: 'Code from the app' })).toBeInTheDocument();
    await user.click(screen.getByLabelText('Remember this browser for 30 days'));
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() => expect(session.get().status).toBe('signed-in'));
    expect(passkeyOptionsAsked).toEqual([{ challenge: 'challenge-1' }]);
    expect(secondStepBodies).toEqual([
      {
        challenge: 'challenge-1',
        rememberBrowser: true,
        passkey: {
          id: 'Y3JlZGVudGlhbA',
          rawId: 'Y3JlZGVudGlhbA',
          type: 'public-key',
          authenticatorAttachment: 'platform',
          response: { authenticatorData: 'ZGF0YQ', clientDataJSON: 'Y2xpZW50', signature: 'c2lnbmF0dXJl' },
          clientExtensionResults: {},
        },
      },
    ]);
  });

  it('asks only for the passkey of an account without the app, and says when the prompt was closed or the passkey refused', async () => {
    loginMethods = ['passkey'];
    secondStepAnswers = [{ status: 403, body: { code: 'passkey_rejected', message: 'Refused' } }];
    let browserPasskey = async (): Promise<unknown> => {
      throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
    };
    stubWebAuthn({ get: () => browserPasskey() });
    const user = await signInWithPassword();
    const usePasskey = await screen.findByRole('button', { name: 'Use a passkey' });
    expect(screen.queryByRole('textbox', { name: 'Code from the app' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a recovery code instead' })).not.toBeInTheDocument();
    await user.click(usePasskey);
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey prompt was closed or failed. Try again.');
    expect(secondStepBodies).toEqual([]);

    browserPasskey = async () => SIGNED;
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent("The passkey is not one of this account's"),
    );
    expect(session.get().status).toBe('signed-out');
  });
});
