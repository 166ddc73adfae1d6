import { type DealerFleetFarm, DealerFleetSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { DealerRoute } from './dealer';

const GREEN_ACRES: DealerFleetFarm = {
  farm: { id: 10, name: 'Green Acres' },
  dealerName: 'Agro Service',
  level: 'control',
  expiresAt: null,
  machines: { total: 4, online: 3, moving: 1, inAlarm: 1 },
  openIncidents: 2,
  nextIrrigation: { machine: { id: 7, name: 'North pivot' }, at: Date.UTC(2099, 5, 1, 20, 30) },
};
const HILL_FARM: DealerFleetFarm = {
  farm: { id: 11, name: 'Hill Farm' },
  dealerName: 'Agro Service',
  level: 'watch',
  expiresAt: Date.UTC(2099, 11, 31, 12),
  machines: { total: 1, online: 0, moving: 0, inAlarm: 0 },
  openIncidents: 0,
  nextIrrigation: null,
};

let fleet: DealerFleetFarm[];
let asked: string[];

beforeEach(() => {
  fleet = [];
  asked = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname } = new URL(url, 'http://localhost');
    asked.push(pathname);
    if (pathname === '/api/dealer/fleet/') return new Response(JSON.stringify(DealerFleetSchema.parse(fleet)));
    return new Response(JSON.stringify({ code: 'not_found', message: 'no such call' }), { status: 404 });
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  queryClient.clear();
  session.signOut();
});

const USER = buildUser();

async function renderFleet(locale: Locale = 'en') {
  session.signIn(USER, 'access-1');
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <DealerRoute />
    </QueryClientProvider>,
    { locale },
  );
}

describe("a dealer's fleet", () => {
  it('shows the farms granted side by side, by name: the dealer, the level, until when, the machines, open incidents, the next irrigation', async () => {
    fleet = [HILL_FARM, GREEN_ACRES];
    await renderFleet();
    expect(screen.getByRole('heading', { level: 1, name: "Dealer's fleet" })).toBeInTheDocument();
    const green = await screen.findByRole('region', { name: 'Green Acres' });
    const hill = screen.getByRole('region', { name: 'Hill Farm' });
    expect(green.compareDocumentPosition(hill) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(green).toHaveTextContent('Granted to Agro Service');
    expect(green).toHaveTextContent('Control');
    expect(green).toHaveTextContent('Access until the farm revokes it');
    const counts = (card: HTMLElement) =>
      within(card)
        .getAllByRole('definition')
        .map((count) => count.textContent);
    expect(counts(green)).toEqual(['4', '3', '1', '1', '2', expect.stringMatching(/^North pivot, 01\/06\/2099/)]);
    expect(
      within(green)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Machines', 'Online', 'Moving', 'In alarm', 'Open incidents', 'Next irrigation']);
    expect(hill).toHaveTextContent('Watch');
    expect(hill).toHaveTextContent(/Access until 31\/12\/2099/);
    expect(counts(hill)).toEqual(['1', '0', '0', '0', '0', 'None planned']);
    expect(screen.getByRole('link', { name: 'The machines' })).toHaveAttribute('href', '/en/sprinklers');
    expect(asked).toEqual(['/api/dealer/fleet/']);
  });

  it("switches the machines table to a card's farm through its Machines link", async () => {
    fleet = [GREEN_ACRES, HILL_FARM];
    await renderFleet();
    const hill = await screen.findByRole('region', { name: 'Hill Farm' });
    const link = within(hill).getByRole('link', { name: 'Machines of Hill Farm' });
    expect(link).toHaveAttribute('href', '/en/sprinklers');
    expect(link).toHaveTextContent('Machines');
    await userEvent.click(link);
    expect(localStorage.getItem(`pivot-farm:${USER.id}`)).toBe('11');
  });

  it('says so when no farm has granted the dealer access', async () => {
    await renderFleet();
    expect(await screen.findByText('No farm has granted your dealer access to its machines.')).toBeInTheDocument();
  });

  it('speaks Polish', async () => {
    fleet = [GREEN_ACRES];
    await renderFleet('pl');
    expect(await screen.findByRole('heading', { level: 1, name: 'Flota serwisu' })).toBeInTheDocument();
    const green = await screen.findByRole('region', { name: 'Green Acres' });
    expect(green).toHaveTextContent('Udostępnione serwisowi Agro Service');
    expect(green).toHaveTextContent('W alarmie');
    expect(green).toHaveTextContent('Otwarte zdarzenia');
    expect(green).toHaveTextContent(/Następne nawadnianie\s*North pivot, 01\.06\.2099/);
    expect(within(green).getByRole('link', { name: 'Maszyny gospodarstwa Green Acres' })).toBeInTheDocument();
  });
});
