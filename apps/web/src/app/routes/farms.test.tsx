import {
  type AccessLevel,
  ERROR_STATUS,
  type ErrorCode,
  type Farm,
  DealerGrantListSchema,
  DealerGrantSchema,
  DealerListSchema,
  DealerMemberListSchema,
  DealerSchema,
  FarmDetailSchema,
  type FarmInvitation,
  FarmInvitationListSchema,
  FarmInvitationSchema,
  FarmListSchema,
  FarmMemberSchema,
  type FarmRole,
  FarmSchema,
  SprinklerWithUsersSchema,
  type User,
} from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerListItem, buildUser } from '@/test-factories';
import { answerFetchWith, renderInApp } from '@/test-utils';
import { DialogHost } from '@/ui/dialog/dialog-host';
import { dialogStore } from '@/ui/dialog/dialogs';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { showApiFailuresAsToasts } from '../api-failure-toasts';
import { FarmRoute, FarmsRoute } from './farms';

const ADMIN = buildUser({ id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@farm.pl', admin: true });
const OWNER = buildUser({ id: 2, first_name: 'Olga', last_name: 'Owner', email: 'olga@farm.pl' });
const MANAGER = buildUser({ id: 3, first_name: 'Marek', last_name: 'Manager', email: 'marek@farm.pl' });
const MEMBER = buildUser({ id: 4, first_name: 'Ewa', last_name: 'Member', email: 'ewa@farm.pl' });
const NEWCOMER = buildUser({ id: 5, first_name: 'Nina', last_name: 'New', email: 'nina@farm.pl' });
const ACCOUNTS = [ADMIN, OWNER, MANAGER, MEMBER, NEWCOMER];

type Member = { id: number; role: FarmRole; grants: { sprinklerId: number; level: AccessLevel }[] };
type FarmState = {
  id: number;
  name: string;
  members: Member[];
  machines: { id: number; name: string }[];
  requireSecondFactor?: boolean;
};

/**
 * The farms' calls of the server in miniature, for the user signed in (docs/roles.md): a farm the
 * user is no member of is not found, a member is refused its detail, and the roles' rules hold.
 * Every answer goes through the contract's schema, so a fake that drifted from it fails here.
 */
class FakeServer {
  farms: FarmState[] = [
    {
      id: 10,
      name: 'Green Acres',
      members: [
        { id: OWNER.id, role: 'owner', grants: [] },
        { id: MANAGER.id, role: 'manager', grants: [] },
        { id: MEMBER.id, role: 'member', grants: [{ sprinklerId: 7, level: 'control' }] },
      ],
      machines: [
        { id: 7, name: 'North field' },
        { id: 8, name: 'South field' },
      ],
    },
  ];
  invitations: (FarmInvitation & { farmId: number })[] = [
    { farmId: 10, id: 50, email: 'piotr@farm.pl', role: 'member', sentAt: Date.UTC(2026, 10, 20, 9), expiresAt: null },
  ];
  dealers = [
    { id: 30, name: 'AgroService' },
    { id: 31, name: 'PivotCare' },
  ];
  /** Each dealer's members' ids, in the order they were added. */
  dealerMembers = new Map<number, number[]>([[31, [MEMBER.id, NEWCOMER.id]]]);
  grants: {
    farmId: number;
    dealerId: number;
    level: AccessLevel;
    machines: 'all' | number[];
    expiresAt: number | null;
  }[] = [{ farmId: 10, dealerId: 31, level: 'watch', machines: [8], expiresAt: Date.UTC(2026, 0, 31, 22) }];
  /** The next call of "METHOD /path/" fails with this code. */
  failNext = new Map<string, ErrorCode>();
  calls: { call: string; body: unknown }[] = [];

  constructor(private readonly viewer: () => User) {}

  answer(method: string, path: string, body: unknown): [status: number, body?: unknown] {
    const call = `${method} ${path}`;
    this.calls.push({ call, body });
    const failure = this.failNext.get(call);
    if (failure) {
      this.failNext.delete(call);
      return [ERROR_STATUS[failure], { code: failure, message: 'from the server' }];
    }
    const viewer = this.viewer();
    if (call === 'GET /api/farm/') {
      const seen = this.farms.filter((farm) => viewer.admin || this.roleIn(farm, viewer.id));
      return [200, FarmListSchema.parse(seen.map((farm) => this.summary(farm)))];
    }
    if (call === 'POST /api/farm/') {
      const { name } = body as { name: string };
      if (this.farms.some((farm) => farm.name === name)) return this.refuse('farm_name_taken');
      const farm = { id: 20 + this.farms.length, name, members: [], machines: [] };
      this.farms.push(farm);
      return [201, FarmSchema.parse(this.summary(farm))];
    }
    if (call === 'GET /api/dealer/') return [200, DealerListSchema.parse(this.dealers)];
    if (call === 'POST /api/dealer/') {
      if (!viewer.admin) return this.refuse('forbidden');
      const { name } = body as { name: string };
      if (this.dealers.some((dealer) => dealer.name === name)) return this.refuse('dealer_name_taken');
      const dealer = { id: 30 + this.dealers.length, name };
      this.dealers.push(dealer);
      return [201, DealerSchema.parse(dealer)];
    }
    const [, dealerOfMembers, , memberId] = /^\/api\/dealer\/(\d+)\/members\/((\d+)\/)?$/.exec(path) ?? [];
    if (dealerOfMembers) {
      const dealerId = Number(dealerOfMembers);
      if (!viewer.admin) return this.refuse('forbidden');
      if (!this.dealers.some((dealer) => dealer.id === dealerId)) return this.refuse('dealer_not_found');
      const ids = this.dealerMembers.get(dealerId) ?? [];
      if (method === 'GET') {
        const listed = ids.map((id) => ACCOUNTS.find((account) => account.id === id)!);
        return [
          200,
          DealerMemberListSchema.parse(
            listed.map(({ id, first_name, last_name, email }) => ({ id, first_name, last_name, email })),
          ),
        ];
      }
      if (method === 'DELETE') {
        if (!ids.includes(Number(memberId))) return this.refuse('user_not_found');
        this.dealerMembers.set(
          dealerId,
          ids.filter((id) => id !== Number(memberId)),
        );
        return [204];
      }
      const { email } = body as { email: string };
      const account = ACCOUNTS.find((candidate) => candidate.email === email);
      if (!account) return this.refuse('user_not_found');
      if (!ids.includes(account.id)) this.dealerMembers.set(dealerId, [...ids, account.id]);
      return [204];
    }
    const permissions = /^\/api\/sprinkler\/(\d+)\/permissions\/$/.exec(path);
    if (method === 'PATCH' && permissions) return this.changePermissions(Number(permissions[1]), body);
    const [, farmId, , userId] = /^\/api\/farm\/(\d+)\/(members\/(\d+)\/)?/.exec(path) ?? [];
    const farm = this.farms.find((candidate) => candidate.id === Number(farmId));
    const standing = farm && (viewer.admin ? 'operator' : this.roleIn(farm, viewer.id));
    if (!farm || !standing) return this.refuse('farm_not_found');
    if (call === `GET /api/farm/${farm.id}/`) {
      if (standing === 'member') return this.refuse('forbidden');
      return [200, FarmDetailSchema.parse(this.detail(farm))];
    }
    if (call === `PATCH /api/farm/${farm.id}/`) {
      if (standing !== 'operator' && standing !== 'owner') return this.refuse('forbidden');
      farm.name = (body as { name: string }).name;
      return [200, FarmSchema.parse(this.summary(farm))];
    }
    if (call === `PUT /api/farm/${farm.id}/second-factor/`) {
      if (standing !== 'operator' && standing !== 'owner') return this.refuse('forbidden');
      farm.requireSecondFactor = (body as { required: boolean }).required;
      return [200, FarmSchema.parse(this.summary(farm))];
    }
    if (call === `POST /api/farm/${farm.id}/members/`) {
      const { email, role } = body as { email: string; role: FarmRole };
      const person = ACCOUNTS.find((account) => account.email === email);
      if (!person) return this.refuse('user_not_found');
      if (this.roleIn(farm, person.id)) return this.refuse('farm_member_exists');
      farm.members.push({ id: person.id, role, grants: [] });
      return [201, FarmMemberSchema.parse(this.member(farm.members.at(-1)!))];
    }
    const mayHandle = (role: FarmRole) =>
      standing === 'operator' || standing === 'owner' || (standing === 'manager' && role !== 'owner');
    if (path.startsWith(`/api/farm/${farm.id}/dealers/`)) {
      if (!mayHandle('member')) return this.refuse('forbidden');
      return this.dealerCall(farm, method, path.slice(`/api/farm/${farm.id}/dealers/`.length), body);
    }
    if (path.startsWith(`/api/farm/${farm.id}/invitations/`)) {
      if (!mayHandle('member')) return this.refuse('forbidden');
      return this.invitationCall(farm, method, path.slice(`/api/farm/${farm.id}/invitations/`.length), body, mayHandle);
    }
    const member = farm.members.find((candidate) => candidate.id === Number(userId));
    if (!member) return this.refuse('user_not_found');
    const owners = farm.members.filter((candidate) => candidate.role === 'owner').length;
    if (call === `PATCH /api/farm/${farm.id}/members/${member.id}/`) {
      const { role } = body as { role: FarmRole };
      if (!mayHandle(member.role) || !mayHandle(role)) return this.refuse('forbidden');
      if (member.role === 'owner' && role !== 'owner' && owners <= 1) return this.refuse('last_owner');
      member.role = role;
      return [200, FarmMemberSchema.parse(this.member(member))];
    }
    if (call === `DELETE /api/farm/${farm.id}/members/${member.id}/`) {
      if (member.id !== viewer.id && !mayHandle(member.role)) return this.refuse('forbidden');
      if (member.role === 'owner' && owners <= 1) return this.refuse('last_owner');
      farm.members = farm.members.filter((candidate) => candidate !== member);
      return [204];
    }
    return this.refuse('not_found');
  }

  private dealerCall(farm: FarmState, method: string, rest: string, body: unknown): [number, unknown?] {
    const present = (grant: FakeServer['grants'][number]) => ({
      dealer: this.dealers.find((dealer) => dealer.id === grant.dealerId)!,
      level: grant.level,
      machines: grant.machines,
      expiresAt: grant.expiresAt,
      grantedAt: Date.UTC(2025, 11, 1),
      inForce: grant.expiresAt === null || grant.expiresAt > Date.now(),
    });
    if (method === 'GET' && rest === '') {
      const held = this.grants.filter((grant) => grant.farmId === farm.id);
      return [200, DealerGrantListSchema.parse(held.map(present))];
    }
    const dealer = this.dealers.find((candidate) => `${candidate.id}/` === rest);
    if (!dealer) return this.refuse('dealer_not_found');
    this.grants = this.grants.filter((grant) => grant.farmId !== farm.id || grant.dealerId !== dealer.id);
    if (method === 'PUT') {
      const { level, machines, expiresAt } = body as {
        level: AccessLevel;
        machines: 'all' | number[];
        expiresAt: number | null;
      };
      const grant = { farmId: farm.id, dealerId: dealer.id, level, machines, expiresAt };
      this.grants.push(grant);
      return [200, DealerGrantSchema.parse(present(grant))];
    }
    if (method === 'DELETE') return [204];
    return this.refuse('not_found');
  }

  private invitationCall(
    farm: FarmState,
    method: string,
    rest: string,
    body: unknown,
    mayHandle: (role: FarmRole) => boolean,
  ): [number, unknown?] {
    const present = ({ farmId: _farmId, ...invitation }: FarmInvitation & { farmId: number }) => invitation;
    if (method === 'GET' && rest === '') {
      const open = this.invitations.filter((invitation) => invitation.farmId === farm.id);
      return [200, FarmInvitationListSchema.parse(open.map(present))];
    }
    if (method === 'POST' && rest === '') {
      const { email, role } = body as { email: string; role: FarmRole };
      if (!mayHandle(role)) return this.refuse('forbidden');
      const person = ACCOUNTS.find((account) => account.email === email);
      if (person && this.roleIn(farm, person.id)) return this.refuse('farm_member_exists');
      if (this.invitations.some((invitation) => invitation.farmId === farm.id && invitation.email === email)) {
        return this.refuse('invitation_pending');
      }
      const sentAt = Date.UTC(2026, 10, 25, 12);
      const invitation = { farmId: farm.id, id: 60 + this.invitations.length, email, role, sentAt, expiresAt: null };
      this.invitations.push(invitation);
      return [201, FarmInvitationSchema.parse(present(invitation))];
    }
    const [, id, resend] = /^(\d+)\/(resend\/)?$/.exec(rest) ?? [];
    const invitation = this.invitations.find(
      (candidate) => candidate.farmId === farm.id && candidate.id === Number(id),
    );
    if (!invitation) return this.refuse('invitation_not_found');
    if (method === 'POST' && resend) {
      invitation.expiresAt = Date.UTC(2026, 11, 2, 12);
      return [200, FarmInvitationSchema.parse(present(invitation))];
    }
    if (method === 'DELETE' && !resend) {
      this.invitations = this.invitations.filter((candidate) => candidate !== invitation);
      return [204];
    }
    return this.refuse('not_found');
  }

  private changePermissions(sprinklerId: number, body: unknown): [number, unknown] {
    const { user, action, level } = body as { user: number; action: 'grant' | 'revoke'; level?: AccessLevel };
    const farm = this.farms.find((candidate) => candidate.machines.some((machine) => machine.id === sprinklerId));
    const member = farm?.members.find((candidate) => candidate.id === user);
    if (!farm || !member) return this.refuse('not_found');
    const held = member.grants.find((grant) => grant.sprinklerId === sprinklerId);
    if (action === 'revoke') {
      if (!held) return this.refuse('access_not_granted');
      member.grants = member.grants.filter((grant) => grant !== held);
    } else if (held) held.level = level ?? 'control';
    else member.grants.push({ sprinklerId, level: level ?? 'control' });
    const machine = farm.machines.find((candidate) => candidate.id === sprinklerId)!;
    return [
      200,
      z.encode(SprinklerWithUsersSchema, {
        sprinkler: buildSprinklerListItem(machine),
        users: [],
        farm: { id: farm.id, name: farm.name },
      }),
    ];
  }

  private refuse(code: ErrorCode): [number, unknown] {
    return [ERROR_STATUS[code], { code, message: 'from the server' }];
  }

  private roleIn(farm: FarmState, userId: number): FarmRole | null {
    return farm.members.find((member) => member.id === userId)?.role ?? null;
  }

  private summary(farm: FarmState): Farm {
    return {
      id: farm.id,
      name: farm.name,
      role: this.roleIn(farm, this.viewer().id),
      requireSecondFactor: farm.requireSecondFactor ?? false,
      machineCount: farm.machines.length,
      memberCount: farm.members.length,
    };
  }

  private member({ id, role, grants }: Member) {
    const { first_name, last_name, email } = ACCOUNTS.find((account) => account.id === id)!;
    return { id, first_name, last_name, email, role, grants };
  }

  private detail(farm: FarmState) {
    return {
      farm: this.summary(farm),
      members: farm.members.map((member) => this.member(member)),
      machines: farm.machines.map(({ id, name }) => ({ id, name, internalId: `PIVOT-0${id}` })),
    };
  }
}

let server: FakeServer;
let viewer: User;
let stopToasts: () => void;

beforeAll(() => {
  stopToasts = showApiFailuresAsToasts();
});
afterAll(() => stopToasts());

beforeEach(() => {
  viewer = OWNER;
  server = new FakeServer(() => viewer);
  document.cookie = 'csrf_token=token-1; path=/';
  answerFetchWith((method, pathname, body) => server.answer(method, pathname, body));
});

afterEach(() => {
  // Unmounted before the cache is cleared and fetch restored: a screen still showing would read
  // its farm again through the real fetch, whose failure would count as a lost connection.
  cleanup();
  vi.unstubAllGlobals();
  queryClient.clear();
  session.signOut();
  for (const toast of toastStore.get()) dismissToast(toast.id);
  for (const dialog of dialogStore.get()) dialog.settle(false);
});

/** Where the screen has taken the user. */
function Address() {
  return <output aria-label="address">{useLocation().pathname}</output>;
}

/** The farms' screens at an address, as the app shows them: with their toasts and dialogs. */
async function renderAt(path: string, as: User, locale: Locale = 'en') {
  viewer = as;
  session.signIn(as, 'access-1');
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <Routes>
        {['', '/en'].map((prefix) => [
          <Route key="farms" path={`${prefix}/farms`} element={<FarmsRoute />} />,
          <Route key="farm" path={`${prefix}/farms/:farmId`} element={<FarmRoute />} />,
        ])}
      </Routes>
      <Address />
      <Toaster />
      <DialogHost />
    </QueryClientProvider>,
    { locale, path: locale === 'en' ? `/en${path}` : path },
  );
  return user;
}

const members = () => screen.findByRole('table', { name: 'Members of the farm' });
const memberRow = async (name: string) => (await within(await members()).findByText(name)).closest('tr')!;
const sent = (call: string) => server.calls.filter((made) => made.call === call).map((made) => made.body);

describe('the farms screen', () => {
  it("lists the user's farms with their role and counts, and links each", async () => {
    await renderAt('/farms', MEMBER);
    const table = await screen.findByRole('table', { name: 'Farms' });
    const row = within(table).getByRole('link', { name: 'Green Acres' }).closest('tr')!;
    expect(within(table).getByRole('link', { name: 'Green Acres' })).toHaveAttribute('href', '/en/farms/10');
    expect(row).toHaveTextContent(/Green Acres.*Member.*2.*3/);
    expect(screen.queryByRole('textbox', { name: 'Name of the farm' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Dealers' })).not.toBeInTheDocument();
  });

  it('says so when the user belongs to no farm', async () => {
    await renderAt('/farms', NEWCOMER);
    expect(await screen.findByText('You do not belong to any farm yet.')).toBeInTheDocument();
  });

  it("lets the server's administrator create a dealer and add an existing account to it", async () => {
    const user = await renderAt('/farms', ADMIN);
    const panel = await screen.findByRole('region', { name: 'Dealers' });
    const create = within(panel).getByRole('form', { name: 'New dealer' });
    await user.click(within(create).getByRole('button', { name: 'Create dealer' }));
    expect(within(create).getByRole('textbox', { name: 'Name of the dealer' })).toHaveAccessibleDescription(
      'Give the dealer a name.',
    );
    await user.type(within(create).getByRole('textbox', { name: 'Name of the dealer' }), 'AgroService');
    await user.click(within(create).getByRole('button', { name: 'Create dealer' }));
    expect(await screen.findByText('A dealer with this name already exists.')).toBeInTheDocument();
    expect(toastStore.get().at(-1)).toMatchObject({ variant: 'warning' });
    await user.clear(within(create).getByRole('textbox', { name: 'Name of the dealer' }));
    await user.type(within(create).getByRole('textbox', { name: 'Name of the dealer' }), 'Field Techs');
    await user.click(within(create).getByRole('button', { name: 'Create dealer' }));
    expect(await screen.findByText('Dealer Field Techs created')).toBeInTheDocument();
    expect(sent('POST /api/dealer/').at(-1)).toEqual({ name: 'Field Techs' });

    const add = within(panel).getByRole('form', { name: 'Add a member to a dealer' });
    const dealer = within(add).getByRole('combobox', { name: 'Dealer' });
    await waitFor(() => expect(within(dealer).getByRole('option', { name: 'Field Techs' })).toBeInTheDocument());
    await user.selectOptions(dealer, 'Field Techs');
    await user.type(within(add).getByRole('textbox', { name: 'Email of the member' }), 'nina@farm.pl');
    await user.click(within(add).getByRole('button', { name: 'Add to the dealer' }));
    expect(await screen.findByText('nina@farm.pl is now a member of Field Techs')).toBeInTheDocument();
    expect(sent('POST /api/dealer/32/members/')).toEqual([{ email: 'nina@farm.pl' }]);
    expect(within(add).getByRole('textbox', { name: 'Email of the member' })).toHaveValue('');
  });

  it("lists each dealer's members to the server's administrator, and removes one after asking", async () => {
    const user = await renderAt('/farms', ADMIN);
    const panel = await screen.findByRole('region', { name: 'Dealers' });
    const care = await within(panel).findByRole('table', { name: 'Members of PivotCare' });
    await waitFor(() => expect(within(care).getByText('Ewa Member')).toBeInTheDocument());
    expect(within(care).getByText('nina@farm.pl')).toBeInTheDocument();
    expect(within(panel).getByRole('region', { name: 'AgroService' })).toHaveTextContent('No members yet.');

    await user.click(within(care).getByRole('button', { name: 'Remove Ewa Member from the dealer' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Ewa Member?' });
    expect(dialog).toHaveTextContent('Ewa Member loses access to the machines the farms granted PivotCare at once');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ewa Member is no longer a member of PivotCare')).toBeInTheDocument();
    await waitFor(() => expect(within(care).queryByText('Ewa Member')).not.toBeInTheDocument());
    expect(within(care).getByText('Nina New')).toBeInTheDocument();
    expect(sent('DELETE /api/dealer/31/members/4/')).toHaveLength(1);

    // A member added shows in their dealer's list.
    const add = within(panel).getByRole('form', { name: 'Add a member to a dealer' });
    await user.selectOptions(within(add).getByRole('combobox', { name: 'Dealer' }), 'AgroService');
    await user.type(within(add).getByRole('textbox', { name: 'Email of the member' }), 'olga@farm.pl');
    await user.click(within(add).getByRole('button', { name: 'Add to the dealer' }));
    const agro = within(panel).getByRole('table', { name: 'Members of AgroService' });
    expect(await within(agro).findByText('Olga Owner')).toBeInTheDocument();
  });

  it("lets the server's administrator create a farm, then takes them to it", async () => {
    const user = await renderAt('/farms', ADMIN);
    const row = (await screen.findByRole('link', { name: 'Green Acres' })).closest('tr')!;
    expect(row).toHaveTextContent('Administrator');

    await user.click(screen.getByRole('button', { name: 'Create farm' }));
    expect(screen.getByRole('textbox', { name: 'Name of the farm' })).toHaveAccessibleDescription(
      'Give the farm a name.',
    );
    expect(sent('POST /api/farm/')).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'Name of the farm' }), 'Green Acres');
    await user.click(screen.getByRole('button', { name: 'Create farm' }));
    // A name taken is the user's to correct: a warning.
    expect(await screen.findByText('A farm with this name already exists.')).toBeInTheDocument();
    expect(toastStore.get().at(-1)).toMatchObject({ variant: 'warning' });

    await user.clear(screen.getByRole('textbox', { name: 'Name of the farm' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of the farm' }), 'Hill Farm');
    await user.click(screen.getByRole('button', { name: 'Create farm' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hill Farm' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/en/farms/21');
    expect(screen.getByText("You see this farm as the server's administrator.")).toBeInTheDocument();
  });
});

describe("a farm's screen", () => {
  it("shows the owner every member with a role to change, each member's machines, and the farm's machines", async () => {
    const user = await renderAt('/farms/10', OWNER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Green Acres' })).toBeInTheDocument();
    expect(screen.getByText('Your role: Owner')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Members (3)' })).toBeInTheDocument();

    const owner = await memberRow('Olga Owner');
    expect(owner).toHaveTextContent('(you)');
    expect(within(owner).getByRole('button', { name: 'Leave the farm' })).toBeInTheDocument();
    expect(owner).toHaveTextContent('Controls every machine of the farm');
    const role = within(await memberRow('Ewa Member')).getByRole('combobox', { name: 'Role of Ewa Member' });
    expect([...(role as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Owner',
      'Manager',
      'Member',
    ]);
    expect(
      within(await memberRow('Ewa Member')).getByRole('combobox', { name: 'Access of Ewa Member to North field' }),
    ).toHaveValue('control');
    expect(
      within(await memberRow('Ewa Member')).getByRole('combobox', { name: 'Access of Ewa Member to South field' }),
    ).toHaveValue('none');

    const machines = screen.getByRole('region', { name: 'Machines (2)' });
    expect(within(machines).getByRole('link', { name: /North field/ })).toHaveAttribute('href', '/en/sprinklers/7');
    // Only the server's administrator adds people, for now.
    expect(screen.queryByRole('region', { name: 'Add a member' })).not.toBeInTheDocument();

    await user.selectOptions(role, 'manager');
    expect(await screen.findByText('Ewa Member: Manager')).toBeInTheDocument();
    expect(sent('PATCH /api/farm/10/members/4/')).toEqual([{ role: 'manager' }]);
    // Read again: a manager runs the farm, so has no grants to edit.
    await waitFor(async () =>
      expect(await memberRow('Ewa Member')).toHaveTextContent('Controls every machine of the farm'),
    );
  });

  it("offers a manager only member and manager, no owner's role, no rename, and lets them grant a member watch", async () => {
    const user = await renderAt('/farms/10', MANAGER);
    await screen.findByRole('heading', { level: 1, name: 'Green Acres' });
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();

    const owner = await memberRow('Olga Owner');
    expect(within(owner).queryByRole('combobox')).not.toBeInTheDocument();
    expect(owner).toHaveTextContent('Owner');
    expect(within(owner).queryByRole('button')).not.toBeInTheDocument();
    const role = within(await memberRow('Ewa Member')).getByRole('combobox', { name: 'Role of Ewa Member' });
    expect([...(role as HTMLSelectElement).options].map((option) => option.value)).toEqual(['manager', 'member']);

    const south = within(await memberRow('Ewa Member')).getByRole('combobox', {
      name: 'Access of Ewa Member to South field',
    });
    await user.selectOptions(south, 'watch');
    expect(await screen.findByText('Ewa Member can now watch South field.')).toBeInTheDocument();
    expect(sent('PATCH /api/sprinkler/8/permissions/')).toEqual([{ user: 4, action: 'grant', level: 'watch' }]);

    const north = within(await memberRow('Ewa Member')).getByRole('combobox', {
      name: 'Access of Ewa Member to North field',
    });
    await user.selectOptions(north, 'none');
    expect(await screen.findByText('Ewa Member no longer has access to North field.')).toBeInTheDocument();
    expect(sent('PATCH /api/sprinkler/7/permissions/')).toEqual([{ user: 4, action: 'revoke' }]);
    await waitFor(() => expect(north).toHaveValue('none'));
    expect(south).toHaveValue('watch');
  });

  it('warns that a farm keeps its last owner, and shows the role it kept', async () => {
    const user = await renderAt('/farms/10', OWNER);
    const role = within(await memberRow('Olga Owner')).getByRole('combobox', { name: 'Role of Olga Owner' });
    await user.selectOptions(role, 'member');
    expect(await screen.findByText('Make someone else an owner of the farm first.')).toBeInTheDocument();
    expect(toastStore.get().at(-1)).toMatchObject({ variant: 'warning', title: 'A farm needs an owner' });
    await waitFor(() => expect(role).toHaveValue('owner'));
  });

  it('removes a member after asking', async () => {
    const user = await renderAt('/farms/10', MANAGER);
    await user.click(
      within(await memberRow('Ewa Member')).getByRole('button', { name: 'Remove Ewa Member from the farm' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Remove Ewa Member?' });
    expect(dialog).toHaveTextContent('Ewa Member no longer belongs to Green Acres');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ewa Member no longer belongs to Green Acres')).toBeInTheDocument();
    const table = await members();
    await waitFor(() => expect(within(table).queryByText('Ewa Member')).not.toBeInTheDocument());
    expect(sent('DELETE /api/farm/10/members/4/')).toHaveLength(1);
  });

  it('lets the administrator rename the farm in place and add an existing account in a role', async () => {
    const user = await renderAt('/farms/10', ADMIN);
    await screen.findByRole('heading', { level: 1, name: 'Green Acres' });
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const form = screen.getByRole('form', { name: 'Rename the farm' });
    const name = within(form).getByRole('textbox', { name: 'Name of the farm' });
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.type(name, 'Green Acres North{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Green Acres North' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Rename the farm' })).not.toBeInTheDocument();

    const add = screen.getByRole('region', { name: 'Add a member' });
    await user.type(within(add).getByRole('textbox', { name: 'Email' }), 'olga@farm.pl');
    await user.click(within(add).getByRole('button', { name: 'Add member' }));
    expect(
      await screen.findByText('This person is a member of the farm already: change their role instead.'),
    ).toBeInTheDocument();

    await user.clear(within(add).getByRole('textbox', { name: 'Email' }));
    await user.type(within(add).getByRole('textbox', { name: 'Email' }), 'nina@farm.pl');
    await user.selectOptions(within(add).getByRole('combobox', { name: 'Role' }), 'manager');
    await user.click(within(add).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Nina New joined the farm: Manager.')).toBeInTheDocument();
    expect(sent('POST /api/farm/10/members/').at(-1)).toEqual({ email: 'nina@farm.pl', role: 'manager' });
    expect(within(await memberRow('Nina New')).getByRole('combobox', { name: 'Role of Nina New' })).toHaveValue(
      'manager',
    );
    expect(within(add).getByRole('textbox', { name: 'Email' })).toHaveValue('');
  });

  it('tells a member why they may not see it, with no toast, and lets them leave the farm', async () => {
    const user = await renderAt('/farms/10', MEMBER);
    expect(
      await screen.findByRole('heading', { name: "Only the farm's owners and managers see its members" }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Green Acres' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your machines' })).toHaveAttribute('href', '/en/sprinklers');
    expect(toastStore.get()).toEqual([]);

    await user.click(await screen.findByRole('button', { name: 'Leave the farm' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Leave Green Acres?' })).getByRole('button', { name: 'Leave' }),
    );
    expect(await screen.findByText('You left Green Acres')).toBeInTheDocument();
    // The toast is shown as the call ends; the move to the farms' list is rendered after it.
    await waitFor(() => expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent(/^\/en\/farms$/));
    expect(await screen.findByText('You do not belong to any farm yet.')).toBeInTheDocument();
    expect(sent('DELETE /api/farm/10/members/4/')).toHaveLength(1);
  });

  it('is not found, without a toast, for a farm the user does not belong to', async () => {
    await renderAt('/farms/10', NEWCOMER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(toastStore.get()).toEqual([]);
  });

  it('lets an owner invite a person in any role, warns of an address invited already, resends and revokes', async () => {
    const user = await renderAt('/farms/10', OWNER);
    const waiting = await screen.findByRole('table', { name: 'Invitations waiting' });
    const row = (await within(waiting).findByText('piotr@farm.pl')).closest('tr')!;
    expect(row).toHaveTextContent(/Member.*20\/11\/2026.*Not mailed yet/);

    const invite = screen.getByRole('region', { name: 'Invite a person' });
    const role = within(invite).getByRole('combobox', { name: 'Role' });
    expect([...(role as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      'owner',
      'manager',
      'member',
    ]);
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(within(invite).getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
      "Enter the person's email.",
    );
    expect(sent('POST /api/farm/10/invitations/')).toEqual([]);

    await user.type(within(invite).getByRole('textbox', { name: 'Email' }), 'piotr@farm.pl');
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('This address has an invitation to the farm waiting: resend it instead.'),
    ).toBeInTheDocument();
    expect(toastStore.get().at(-1)).toMatchObject({ variant: 'warning' });

    await user.clear(within(invite).getByRole('textbox', { name: 'Email' }));
    await user.type(within(invite).getByRole('textbox', { name: 'Email' }), 'zofia@farm.pl');
    await user.selectOptions(role, 'owner');
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('zofia@farm.pl is invited to join the farm: Owner.')).toBeInTheDocument();
    expect(sent('POST /api/farm/10/invitations/').at(-1)).toEqual({ email: 'zofia@farm.pl', role: 'owner' });
    expect(await within(waiting).findByText('zofia@farm.pl')).toBeInTheDocument();
    expect(within(invite).getByRole('textbox', { name: 'Email' })).toHaveValue('');

    await user.click(within(row).getByRole('button', { name: 'Resend the invitation to piotr@farm.pl' }));
    expect(await screen.findByText('The invitation to piotr@farm.pl was sent again')).toBeInTheDocument();
    expect(sent('POST /api/farm/10/invitations/50/resend/')).toHaveLength(1);
    await waitFor(() => expect(row).toHaveTextContent('02/12/2026'));

    await user.click(within(row).getByRole('button', { name: 'Revoke the invitation to piotr@farm.pl' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the invitation to piotr@farm.pl?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The invitation to piotr@farm.pl was revoked')).toBeInTheDocument();
    await waitFor(() => expect(within(waiting).queryByText('piotr@farm.pl')).not.toBeInTheDocument());
    expect(sent('DELETE /api/farm/10/invitations/50/')).toHaveLength(1);
  });

  it('lets an owner require two-step sign-in of every member, and no longer', async () => {
    const user = await renderAt('/farms/10', OWNER);
    const setting = await screen.findByRole('switch', { name: 'Require two-step sign-in of every member' });
    expect(setting).not.toBeChecked();
    expect(setting).toBeEnabled();
    expect(setting).toHaveAccessibleDescription(/reaches only their account's set-up/);

    await user.click(setting);
    expect(await screen.findByText('Green Acres now requires two-step sign-in of every member')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/second-factor/')).toEqual([{ required: true }]);
    await waitFor(() => expect(server.farms[0]!.requireSecondFactor).toBe(true));
    expect(setting).toBeChecked();

    await user.click(setting);
    expect(await screen.findByText('Green Acres no longer requires two-step sign-in')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/second-factor/').at(-1)).toEqual({ required: false });
    await waitFor(() => expect(setting).not.toBeChecked());
  });

  it('shows a manager whether the farm requires two-step sign-in, without letting them change it', async () => {
    server.farms[0]!.requireSecondFactor = true;
    await renderAt('/farms/10', MANAGER);
    const setting = await screen.findByRole('switch', { name: 'Require two-step sign-in of every member' });
    expect(setting).toBeChecked();
    expect(setting).toBeDisabled();
    expect(setting).toHaveAccessibleDescription(/Only the farm's owners change this\.$/);
  });

  it('lets the administrator require two-step sign-in', async () => {
    const user = await renderAt('/farms/10', ADMIN);
    await user.click(await screen.findByRole('switch', { name: 'Require two-step sign-in of every member' }));
    expect(await screen.findByText('Green Acres now requires two-step sign-in of every member')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/second-factor/')).toEqual([{ required: true }]);
  });

  it("lists the farm's grants to dealers, grants one control of all machines and another watch of one machine until a day, and revokes", async () => {
    const user = await renderAt('/farms/10', MANAGER);
    const table = await screen.findByRole('table', { name: "Dealers' access" });
    const pivotCare = (await within(table).findByText('PivotCare')).closest('tr')!;
    expect(pivotCare).toHaveTextContent(/Watch.*South field.*Expired/);

    const form = screen.getByRole('region', { name: 'Grant a dealer access' });
    const dealer = within(form).getByRole('combobox', { name: 'Dealer' });
    await waitFor(() =>
      expect([...(dealer as HTMLSelectElement).options].map((option) => option.text)).toEqual([
        'Choose a dealer',
        'AgroService',
        'PivotCare',
      ]),
    );
    await user.click(within(form).getByRole('button', { name: 'Grant access' }));
    expect(dealer).toHaveAccessibleDescription('Choose a dealer.');

    await user.selectOptions(dealer, 'AgroService');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Access' }), 'control');
    await user.click(within(form).getByRole('button', { name: 'Grant access' }));
    expect(await screen.findByText('AgroService can now control the machines of Green Acres.')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/dealers/30/')).toEqual([{ level: 'control', machines: 'all', expiresAt: null }]);
    const agro = (await within(table).findByText('AgroService')).closest('tr')!;
    expect(agro).toHaveTextContent(/Control.*All machines of the farm.*Until revoked/);
    expect(within(form).getByRole('combobox', { name: 'Dealer' })).toHaveValue('');

    await user.selectOptions(dealer, 'PivotCare');
    await user.click(within(form).getByRole('radio', { name: 'Only these machines:' }));
    await user.click(within(form).getByRole('button', { name: 'Grant access' }));
    expect(within(form).getByText('Tick at least one machine.')).toBeInTheDocument();
    await user.click(within(form).getByRole('checkbox', { name: 'North field' }));
    await user.type(within(form).getByRole('textbox', { name: 'Until (optional)' }), '31.12.2099');
    await user.click(within(form).getByRole('button', { name: 'Grant access' }));
    expect(await screen.findByText('PivotCare can now watch the machines of Green Acres.')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/dealers/31/')).toEqual([
      { level: 'watch', machines: [7], expiresAt: new Date(2099, 11, 31, 23, 59, 59, 999).getTime() },
    ]);
    await waitFor(async () =>
      expect((await within(table).findByText('PivotCare')).closest('tr')).toHaveTextContent(
        /Watch.*North field.*31\/12\/2099, 23:59/,
      ),
    );
    expect((await within(table).findByText('PivotCare')).closest('tr')).not.toHaveTextContent('Expired');

    await user.click(within(agro).getByRole('button', { name: 'Revoke the access of AgroService' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the access of AgroService?' });
    expect(dialog).toHaveTextContent('The members of AgroService lose their access to the machines of Green Acres');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('AgroService no longer has access to Green Acres')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('AgroService')).not.toBeInTheDocument());
    expect(sent('DELETE /api/farm/10/dealers/30/')).toHaveLength(1);
  });

  it('refuses an end date in the past', async () => {
    const user = await renderAt('/farms/10', OWNER);
    const form = await screen.findByRole('region', { name: 'Grant a dealer access' });
    await waitFor(() => expect(within(form).getByRole('option', { name: 'AgroService' })).toBeInTheDocument());
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Dealer' }), 'AgroService');
    await user.type(within(form).getByRole('textbox', { name: 'Until (optional)' }), '01.01.2020');
    await user.click(within(form).getByRole('button', { name: 'Grant access' }));
    expect(within(form).getByText('Enter a day from today on, as DD.MM.YYYY.')).toBeInTheDocument();
    expect(sent('PUT /api/farm/10/dealers/30/')).toEqual([]);
  });

  it('lets a manager invite a member or a manager, not an owner', async () => {
    await renderAt('/farms/10', MANAGER);
    const invite = await screen.findByRole('region', { name: 'Invite a person' });
    const role = within(invite).getByRole('combobox', { name: 'Role' });
    expect([...(role as HTMLSelectElement).options].map((option) => option.value)).toEqual(['manager', 'member']);
    expect(await screen.findByRole('table', { name: 'Invitations waiting' })).toHaveTextContent('piotr@farm.pl');
  });

  it('speaks Polish', async () => {
    await renderAt('/farms/10', OWNER, 'pl');
    expect(await screen.findByText('Twoja rola: Właściciel')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Członkowie gospodarstwa' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Dostęp: Ewa Member do maszyny South field' })).toHaveValue('none');
  });
});
