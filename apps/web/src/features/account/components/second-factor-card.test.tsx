import { type SecondFactorStatus, SecondFactorStatusSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { SecondFactorCard } from './second-factor-card';
import { groupedSecret } from './second-factor-setup-dialog';

const USER = buildUser({ email: 'jan@farm.pl' });
const PASSWORD = 'Secret-123';
const CODES = Array.from({ length: 10 }, (_, index) => `k7qm-2xcv-9tnp-4h${String(index).padStart(2, '0')}`);
const OFF: SecondFactorStatus = { enabled: false, enabled_at: null, recovery_codes_left: 0 };
const ON: SecondFactorStatus = { enabled: true, enabled_at: '2026-11-30T10:15:00Z', recovery_codes_left: 10 };

let status: SecondFactorStatus;
let calls: string[];

beforeEach(() => {
  calls = [];
  status = OFF;
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(USER, 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const call = `${init.method ?? 'GET'} ${pathname}`;
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, string>) : {};
    calls.push(call);
    const json = (code: number, answer: unknown) => new Response(JSON.stringify(answer), { status: code });
    const wrongPassword = () => json(403, { code: 'current_password_incorrect', message: 'Wrong password' });
    switch (call) {
      case 'GET /api/user/second-factor/':
        return json(200, SecondFactorStatusSchema.parse(status));
      case 'POST /api/user/second-factor/setup/':
        if (body.password !== PASSWORD) return wrongPassword();
        return json(200, {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
          uri: 'otpauth://totp/Pivot:jan%40farm.pl?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
        });
      case 'POST /api/user/second-factor/':
        if (body.code !== '123456') return json(403, { code: 'second_factor_incorrect', message: 'Wrong code' });
        status = ON;
        return json(200, { recovery_codes: CODES });
      case 'POST /api/user/second-factor/disable/':
        if (body.password !== PASSWORD) return wrongPassword();
        status = OFF;
        return json(200, { message: 'off' });
      case 'GET /api/user/passkeys/':
        return json(200, []);
      case 'POST /api/user/second-factor/recovery-codes/':
        return json(200, { recovery_codes: CODES });
      default:
        return json(404, { code: 'not_found', message: 'no such call' });
    }
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  session.signOut();
});

async function renderCard(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <SecondFactorCard user={USER} />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

describe('the two-step sign-in card', () => {
  it('turns it on: password, QR code and key, a code from the app, then the recovery codes once', async () => {
    const user = await renderCard();
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));

    const passwordDialog = screen.getByRole('dialog', { name: 'Turn on two-step sign-in' });
    await user.type(within(passwordDialog).getByLabelText('Current password'), 'wrong');
    await user.click(within(passwordDialog).getByRole('button', { name: 'Continue' }));
    expect(await within(passwordDialog).findByText('The password is incorrect')).toBeInTheDocument();
    await user.clear(within(passwordDialog).getByLabelText('Current password'));
    await user.type(within(passwordDialog).getByLabelText('Current password'), PASSWORD);
    await user.click(within(passwordDialog).getByRole('button', { name: 'Continue' }));

    const setup = await screen.findByRole('dialog', { name: 'Set up your authenticator app' });
    expect(within(setup).getByRole('img', { name: 'QR code for the authenticator app' })).toBeInTheDocument();
    expect(within(setup).getByLabelText('Key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    const code = within(setup).getByRole('textbox', { name: '2. Enter the 6-digit code the app shows' });
    await user.type(code, '654321');
    await user.click(within(setup).getByRole('button', { name: 'Turn on' }));
    expect(await within(setup).findByText(/The code is wrong, already used, or out of time/)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(within(setup).getByRole('button', { name: 'Turn on' }));

    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(within(codes).getByRole('button', { name: 'Copy the recovery codes' })).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Download (.txt)' })).toBeInTheDocument();
    await user.click(within(codes).getByRole('button', { name: 'Done, I saved them' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('10 recovery codes left')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeInTheDocument();
  });

  it('turns it off with the password', async () => {
    status = ON;
    const user = await renderCard();
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off two-step sign-in?' });
    await user.type(within(dialog).getByLabelText('Current password'), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeInTheDocument();
    expect(calls).toContain('POST /api/user/second-factor/disable/');
  });

  it('speaks Polish, with its plural forms', async () => {
    status = { ...ON, recovery_codes_left: 3 };
    const user = await renderCard('pl');
    expect(await screen.findByText('Pozostały 3 kody odzyskiwania')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nowe kody odzyskiwania' }));
    const dialog = screen.getByRole('dialog', { name: 'Nowe kody odzyskiwania' });
    await user.type(within(dialog).getByLabelText('Obecne hasło'), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Utwórz nowe kody' }));
    expect(await screen.findByRole('dialog', { name: 'Twoje kody odzyskiwania' })).toBeInTheDocument();
  });
});

describe('the set-up key', () => {
  it('reads in groups of four', () => {
    expect(groupedSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupedSecret('JBSWY3DPEH')).toBe('JBSW Y3DP EH');
  });
});
