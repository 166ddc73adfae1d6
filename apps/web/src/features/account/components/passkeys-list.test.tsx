import type { Passkey } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { answerFetchWith, credentialBytes, renderInApp, stubWebAuthn } from '@/test-utils';
import { DialogHost } from '@/ui/dialog/dialog-host';
import { dialogStore } from '@/ui/dialog/dialogs';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { PasskeysList } from './passkeys-list';

const PASSWORD = 'Secret-123';
const LAPTOP: Passkey = {
  id: 1,
  name: 'Laptop',
  created_at: '2026-11-02T09:00:00Z',
  last_used_at: '2026-11-30T07:45:00Z',
};
const OPTIONS = {
  challenge: 'cmVnaXN0cmF0aW9u',
  rp: { id: 'localhost', name: 'Pivot' },
  user: { id: 'Nw', name: 'jan@farm.pl', displayName: '' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  attestation: 'none',
};

/** A new passkey as the browser's PublicKeyCredential holds it. */
const MADE = {
  id: 'bmV3LWtleQ',
  rawId: credentialBytes('new-key'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    attestationObject: credentialBytes('attestation'),
    clientDataJSON: credentialBytes('client'),
    getTransports: () => ['internal'],
  },
  getClientExtensionResults: () => ({}),
};

let passkeys: Passkey[];
let sent: { call: string; body: unknown }[];
let browserMakes: () => Promise<unknown>;

beforeEach(() => {
  passkeys = [LAPTOP];
  sent = [];
  browserMakes = async () => MADE;
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(buildUser({ email: 'jan@farm.pl' }), 'access-1');
  answerFetchWith((method, pathname, body) => {
    const call = `${method} ${pathname}`;
    sent.push({ call, body });
    if (call === 'GET /api/user/passkeys/') return [200, passkeys];
    if (call === 'POST /api/user/passkeys/options/') {
      return (body as { password: string }).password === PASSWORD
        ? [200, { options: OPTIONS }]
        : [403, { code: 'current_password_incorrect', message: 'Wrong password' }];
    }
    if (call === 'POST /api/user/passkeys/') {
      const added = {
        id: 2,
        name: (body as { name: string }).name,
        created_at: '2026-12-01T08:00:00Z',
        last_used_at: null,
      };
      passkeys = [added, ...passkeys];
      return [201, added];
    }
    if (call === 'DELETE /api/user/passkeys/1/') {
      passkeys = passkeys.filter((passkey) => passkey.id !== 1);
      return [200, { message: 'removed' }];
    }
    return [404, { code: 'not_found', message: 'no such call' }];
  });
  stubWebAuthn({ create: () => browserMakes() });
});

afterEach(() => {
  vi.unstubAllGlobals();
  for (const toast of toastStore.get()) dismissToast(toast.id);
  for (const dialog of dialogStore.get()) dialog.settle(false);
  queryClient.clear();
  session.signOut();
});

async function renderList(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <PasskeysList />
      <Toaster />
      <DialogHost />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

const list = () => screen.findByRole('list');

describe("the account's passkeys", () => {
  it('lists each passkey with when it was added and last used', async () => {
    passkeys = [LAPTOP, { ...LAPTOP, id: 3, name: 'Security key', last_used_at: null }];
    await renderList();
    const items = within(await list()).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/Laptop.*Added.*2026.*Last used.*2026/);
    expect(items[1]).toHaveTextContent(/Security key.*Added.*Never used/);
  });

  it('adds one: its name, the password (a wrong one by its field), then the browser’s prompt', async () => {
    const user = await renderList();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Phone');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const password = await screen.findByLabelText('Current password');
    await user.type(password, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The password is incorrect')).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getByRole('list')).toHaveTextContent(/Phone.*Never used/);
    expect(toastStore.get().at(-1)).toMatchObject({ variant: 'success', title: 'The passkey Phone is added' });
    expect(sent.find((made) => made.call === 'POST /api/user/passkeys/')?.body).toEqual({
      name: 'Phone',
      response: {
        id: 'bmV3LWtleQ',
        rawId: 'bmV3LWtleQ',
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: { attestationObject: 'YXR0ZXN0YXRpb24', clientDataJSON: 'Y2xpZW50', transports: ['internal'] },
        clientExtensionResults: {},
      },
    });
  });

  it('keeps the password dialog open, and says so, when the browser’s prompt is closed', async () => {
    browserMakes = async () => {
      throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
    };
    const user = await renderList();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Current password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() =>
      expect(toastStore.get().at(-1)).toMatchObject({
        variant: 'error',
        title: 'The passkey prompt was closed or failed: no passkey was added',
      }),
    );
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
    expect(sent.map((made) => made.call)).not.toContain('POST /api/user/passkeys/');
  });

  it('removes one once confirmed, in Polish', async () => {
    const user = await renderList('pl');
    await user.click(within(await list()).getByRole('button', { name: 'Usuń Laptop' }));
    expect(await screen.findByText('Usunąć klucz dostępu Laptop?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Usuń' }));
    expect(await screen.findByText('Nie ma jeszcze kluczy dostępu.')).toBeInTheDocument();
    expect(sent.map((made) => made.call)).toContain('DELETE /api/user/passkeys/1/');
  });
});
