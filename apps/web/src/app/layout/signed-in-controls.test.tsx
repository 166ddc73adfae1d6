import {
  type DealerFleetFarm,
  DealerFleetSchema,
  type Farm,
  FarmListSchema,
  LogListResponseSchema,
  type User,
} from '@pivot/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { FakeEventStreams } from '@/test-event-streams';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import SignedInControls from './signed-in-controls';

const FARM: Farm = {
  id: 10,
  name: 'Green Acres',
  role: 'member',
  requireSecondFactor: false,
  machineCount: 2,
  memberCount: 3,
};

const GRANTED: DealerFleetFarm = {
  farm: { id: 10, name: 'Green Acres' },
  dealerName: 'AgroService',
  level: 'control',
  expiresAt: null,
  machines: { total: 2, online: 1, moving: 0, inAlarm: 0 },
  openIncidents: 0,
  nextIrrigation: null,
};

let farms: Farm[];
let fleet: DealerFleetFarm[];
let asked: string[];
let alerts: FakeEventStreams;

beforeEach(() => {
  farms = [];
  fleet = [];
  asked = [];
  alerts = new FakeEventStreams();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    asked.push(pathname);
    const json = (answer: unknown) => new Response(JSON.stringify(answer), { status: 200 });
    if (pathname === '/api/alerts/events') return alerts.open(init.signal);
    if (pathname === '/api/logs/') return json(LogListResponseSchema.parse({ count: 0, data: [] }));
    if (pathname === '/api/farm/') return json(FarmListSchema.parse(farms));
    if (pathname === '/api/dealer/fleet/') return json(DealerFleetSchema.parse(fleet));
    return new Response(JSON.stringify({ code: 'not_found', message: 'no such call' }), { status: 404 });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  queryClient.clear();
  session.signOut();
});

/** The header's controls of a signed-in user, with the account menu opened. */
async function openAccountMenu(user: User) {
  session.signIn(user, 'access-1');
  await renderInApp(<SignedInControls />);
  await userEvent.click(
    await screen.findByRole('button', { name: `Account menu of ${user.first_name} ${user.last_name}` }),
  );
  return screen.findByRole('menu');
}

describe("the header's account menu", () => {
  it('links to the farms for a member of a farm, as the farms list tells', async () => {
    farms = [FARM];
    const menu = await openAccountMenu(buildUser());
    expect(await within(menu).findByRole('menuitem', { name: 'Farms' })).toHaveAttribute('href', '/en/farms');
    expect(asked).toContain('/api/farm/');
  });

  it('shows no farms to a user who belongs to none', async () => {
    const menu = await openAccountMenu(buildUser());
    expect(within(menu).getByRole('menuitem', { name: 'Activity' })).toBeInTheDocument();
    await vi.waitFor(() => expect(asked).toContain('/api/farm/'));
    expect(within(menu).queryByRole('menuitem', { name: 'Farms' })).not.toBeInTheDocument();
  });

  it("shows the farms to the server's administrator without asking the list", async () => {
    const menu = await openAccountMenu(buildUser({ admin: true }));
    expect(within(menu).getByRole('menuitem', { name: 'Farms' })).toBeInTheDocument();
    expect(asked).not.toContain('/api/farm/');
  });

  it("links to the dealer's fleet for a member of a dealer some farm has granted access", async () => {
    fleet = [GRANTED];
    const menu = await openAccountMenu(buildUser());
    expect(await within(menu).findByRole('menuitem', { name: "Dealer's fleet" })).toHaveAttribute('href', '/en/dealer');
  });

  it("shows no fleet while the user's dealers have no farm granted (or they belong to no dealer)", async () => {
    const menu = await openAccountMenu(buildUser());
    await vi.waitFor(() => expect(asked).toContain('/api/dealer/fleet/'));
    expect(within(menu).queryByRole('menuitem', { name: "Dealer's fleet" })).not.toBeInTheDocument();
  });
});
