import { UserSchema } from '@pivot/contracts';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCall } from '@/lib/api-client';
import { useSecondFactorSetUpWhenRequired } from './use-second-factor-set-up-when-required';

function serverAnswers(status: number, body: unknown): void {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status }));
}

function WhereTheAppIs() {
  useSecondFactorSetUpWhenRequired('en');
  const location = useLocation();
  return <p>{`${location.pathname}${location.hash}`}</p>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={<WhereTheAppIs />} />
      </Routes>
    </MemoryRouter>,
  );
}

const getSprinklers = () => apiCall({ method: 'GET', path: '/sprinkler/', response: UserSchema });

beforeAll(() => {
  document.cookie = 'csrf_token=token-1; path=/';
});
afterEach(() => vi.unstubAllGlobals());

describe('an administrator who must set up two-step sign-in', () => {
  it('is taken to the account page’s card when a call answers second_factor_required', async () => {
    renderAt('/en/dashboard/sprinklers');
    serverAnswers(403, { code: 'second_factor_required', message: 'Administrators of this server must…' });
    await getSprinklers();
    expect(await screen.findByText('/en/dashboard/account#account-second-factor')).toBeInTheDocument();
  });

  it('stays where they are on any other refusal', async () => {
    renderAt('/en/dashboard/sprinklers');
    serverAnswers(403, { code: 'forbidden', message: 'No permissions' });
    await getSprinklers();
    expect(screen.getByText('/en/dashboard/sprinklers')).toBeInTheDocument();
  });
});
