import {
  BrokerAccountsStatusSchema,
  type Device,
  DeviceListResponseSchema,
  DeviceSecretResponseSchema,
  ERROR_STATUS,
  type ErrorCode,
  QuarantineListResponseSchema,
  type QuarantinedMessage,
  RegisterDeviceBodySchema,
  SprinklerAdminListResponseSchema,
  SprinklerListResponseSchema,
} from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
import { AdminRejectedMessagesRoute, AdminSprinklersRoute } from './admin';

const ADMIN = buildUser({ id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@farm.pl', admin: true });

const machine = (id: number, internalId: string, name: string) => buildSprinklerListItem({ id, internalId, name });

const device = (machineId: string, changes: Partial<Device> = {}): Device => ({
  machineId,
  createdAt: Date.UTC(2026, 3, 1, 8),
  secretCreatedAt: Date.UTC(2026, 3, 1, 8),
  lastConnectedAt: null,
  lastAddress: null,
  lastRefusedAt: null,
  onBroker: true,
  ...changes,
});

/**
 * The device calls of the server in miniature. Every answer goes through the contract's schema,
 * so a fake that drifted from the contract fails here rather than pass.
 */
class FakeServer {
  machines = [machine(1, 'PIVOT-01', 'North field'), machine(2, 'PIVOT-02', 'South field')];
  devices = new Map<string, Device>();
  quarantined: QuarantinedMessage[] = [];
  /** The next call of "METHOD /path/" fails with this code. */
  failNext = new Map<string, ErrorCode>();
  calls: string[] = [];
  private secrets = 0;

  answer(method: string, path: string, body: unknown): [status: number, body?: unknown] {
    this.calls.push(`${method} ${path}`);
    const failure = this.failNext.get(`${method} ${path}`);
    if (failure) {
      this.failNext.delete(`${method} ${path}`);
      return [ERROR_STATUS[failure], { code: failure, message: 'from the server' }];
    }
    const secretOf = (id: string) =>
      DeviceSecretResponseSchema.parse({ device: this.devices.get(id), secret: this.newSecret() });
    // As on the embedded broker: the server keeps no broker accounts, so none can go missing.
    if (method === 'GET' && path === '/api/device/accounts/') {
      return [
        200,
        BrokerAccountsStatusSchema.parse({ managed: false, running: false, progress: null, lastCheck: null }),
      ];
    }
    const id = /^\/api\/device\/([^/]+)\//.exec(path)?.[1];
    if (method === 'GET' && path === '/api/sprinkler/list/') {
      const data = this.machines.map((sprinkler) => ({
        sprinkler,
        users: [],
        farm: sprinkler.id === 1 ? { id: 10, name: 'Green Acres' } : null,
      }));
      return [200, z.encode(SprinklerAdminListResponseSchema, { count: data.length, data })];
    }
    if (method === 'GET' && path === '/api/sprinkler/')
      return [200, z.encode(SprinklerListResponseSchema, this.machines)];
    if (method === 'GET' && path === '/api/quarantine/') {
      return [200, QuarantineListResponseSchema.parse({ count: this.quarantined.length, data: this.quarantined })];
    }
    if (method === 'GET' && path === '/api/device/') {
      return [200, DeviceListResponseSchema.parse([...this.devices.values()])];
    }
    if (method === 'POST' && path === '/api/device/') {
      const { machineId, adoptBrokerAccount } = RegisterDeviceBodySchema.parse(body);
      if (this.devices.has(machineId)) return [409, { code: 'device_exists', message: 'exists' }];
      if (machineId === 'pivot-server') return [409, { code: 'device_id_reserved', message: 'reserved' }];
      // An account the broker's operator made by hand, not the server.
      if (machineId === 'operator-bridge' && !adoptBrokerAccount) {
        return [409, { code: 'device_account_foreign', message: 'foreign' }];
      }
      this.devices.set(machineId, device(machineId, { createdAt: Date.now(), secretCreatedAt: Date.now() }));
      return [201, secretOf(machineId)];
    }
    if (id && !this.devices.has(id)) return [404, { code: 'device_not_found', message: 'not found' }];
    if (id && method === 'POST' && path.endsWith('/secret/')) return [200, secretOf(id)];
    if (id && method === 'DELETE') {
      this.devices.delete(id);
      return [204];
    }
    return [404, { code: 'not_found', message: 'no such call' }];
  }

  /** 43 base64url characters, as the server's 32 random bytes. */
  private newSecret(): string {
    this.secrets += 1;
    return `s${this.secrets}`.padEnd(43, 'Zq8-_x');
  }
}

let server: FakeServer;
let stopToasts: () => void;

beforeAll(() => {
  stopToasts = showApiFailuresAsToasts();
});
afterAll(() => stopToasts());

beforeEach(() => {
  server = new FakeServer();
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(ADMIN, 'access-1');
  answerFetchWith((method, pathname, body) => server.answer(method, pathname, body));
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  for (const toast of toastStore.get()) dismissToast(toast.id);
  for (const dialog of dialogStore.get()) dialog.settle(false);
});

/** An admin screen (the machines by default) as the app shows it: with its toasts, dialogs and failures told as toasts. */
async function renderScreen(locale: Locale = 'en', Screen = AdminSprinklersRoute) {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <Screen />
      <Toaster />
      <DialogHost />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

const controllers = (name = 'Controllers') => screen.getByRole('table', { name });
const controllerRow = async (id: string, table = 'Controllers') =>
  (await within(controllers(table)).findByText(id)).closest('tr')!;

describe('the controllers of the admin machines screen', () => {
  it('lists each controller with its machine, and marks the machines whose controller has no credentials', async () => {
    server.devices.set('PIVOT-01', device('PIVOT-01', { lastConnectedAt: Date.now(), lastAddress: '10.0.0.7' }));
    server.devices.set('PUMP-9', device('PUMP-9', { onBroker: false }));
    await renderScreen();

    const first = await controllerRow('PIVOT-01');
    expect(first).toHaveTextContent('North field');
    expect(first).toHaveTextContent('from 10.0.0.7');
    const lost = await controllerRow('PUMP-9');
    expect(lost).toHaveTextContent('Machine not added yet');
    expect(lost).toHaveTextContent('Never connected');
    expect(lost).toHaveTextContent(
      'The broker has no account for this controller: the server makes it again, or, if it cannot, give it a new secret',
    );

    const machines = screen.getByRole('table', { name: 'Machines' });
    const machineRow = (name: string) => within(machines).getByText(name).closest('tr')!;
    await waitFor(() => expect(machineRow('North field')).toHaveTextContent('Credentials set'));
    expect(machineRow('South field')).toHaveTextContent('No credentials');
  });

  it("names each machine's farm in its own column", async () => {
    await renderScreen();
    const machines = await screen.findByRole('table', { name: 'Machines' });
    const headers = within(machines)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers.indexOf('Farm')).toBe(headers.indexOf('Machine ID') + 1);
    const machineRow = async (name: string) => (await within(machines).findByText(name)).closest('tr')!;
    expect(await machineRow('North field')).toHaveTextContent('Green Acres');
    expect(await machineRow('South field')).toHaveTextContent('In no farm');
  });

  it('registers a controller and shows its secret once, with a copy button; closing forgets it', async () => {
    const user = await renderScreen();
    await within(controllers()).findByText('No controller matches');

    await user.click(screen.getByRole('button', { name: 'Register controller' }));
    const form = screen.getByRole('dialog', { name: 'Register a controller' });
    const id = within(form).getByLabelText('Machine ID');
    await user.type(id, 'North field');
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(id).toHaveAccessibleDescription(expect.stringContaining('Use 1 to 64 letters (without accents), digits'));
    expect(server.calls).not.toContain('POST /api/device/');

    await user.clear(id);
    await user.type(id, 'PIVOT-02');
    await user.click(within(form).getByRole('button', { name: 'Register' }));

    const shown = await screen.findByRole('dialog', { name: 'Controller PIVOT-02 registered' });
    const secret = 's1'.padEnd(43, 'Zq8-_x');
    expect(shown).toHaveAccessibleDescription('Enter these in the controller. This secret will not be shown again.');
    expect(within(shown).getByLabelText('Secret (MQTT password)')).toHaveTextContent(secret);
    expect(within(shown).getByLabelText('MQTT username')).toHaveTextContent('PIVOT-02');
    expect(shown).toHaveTextContent('Then add the machine with “Add machine”.');
    expect(within(shown).getByRole('button', { name: 'Copy the secret' })).toHaveFocus();

    await user.click(within(shown).getByRole('button', { name: 'Copy the secret' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(secret);
    expect(
      within(shown)
        .getAllByRole('status')
        .map((status) => status.textContent),
    ).toContain('Copied');

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(secret);
    // Nothing the app keeps holds the secret: not the query cache, not the mutation cache, not storage.
    const kept = JSON.stringify([
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.state.data),
      queryClient
        .getMutationCache()
        .getAll()
        .map((mutation) => mutation.state.data),
      { ...localStorage },
      { ...sessionStorage },
    ]);
    expect(kept).not.toContain(secret);

    const row = await controllerRow('PIVOT-02');
    expect(row).toHaveTextContent('South field');
    expect(row).toHaveTextContent('Never connected');
  });

  it('asks before it gives a controller a new secret, then shows the new one', async () => {
    server.devices.set('PIVOT-01', device('PIVOT-01'));
    const user = await renderScreen();
    const row = await controllerRow('PIVOT-01');

    await user.click(within(row).getByRole('button', { name: 'New secret for PIVOT-01' }));
    const confirm = screen.getByRole('dialog', { name: 'Give PIVOT-01 a new secret?' });
    expect(confirm).toHaveAccessibleDescription(
      'The current secret stops working at once: the controller is disconnected until the new secret is entered in it.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls).not.toContain('POST /api/device/PIVOT-01/secret/');

    await user.click(within(row).getByRole('button', { name: 'New secret for PIVOT-01' }));
    await user.click(screen.getByRole('button', { name: 'Make a new secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New secret for PIVOT-01' });
    expect(within(shown).getByLabelText('Secret (MQTT password)')).toHaveTextContent('s1'.padEnd(43, 'Zq8-_x'));
    expect(shown).toHaveTextContent('The controller stays disconnected until the new secret is entered in it.');
    expect(server.calls.filter((call) => call === 'POST /api/device/PIVOT-01/secret/')).toHaveLength(1);
  });

  it('removes the credentials after a confirmation', async () => {
    server.devices.set('PIVOT-01', device('PIVOT-01'));
    const user = await renderScreen();
    const row = await controllerRow('PIVOT-01');
    await user.click(within(row).getByRole('button', { name: 'Remove the credentials of PIVOT-01' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove the credentials of PIVOT-01?' });
    expect(confirm).toHaveTextContent('cannot connect again');
    await user.click(within(confirm).getByRole('button', { name: 'Remove credentials' }));
    expect(await screen.findByText('Controller PIVOT-01 can no longer connect.')).toBeInTheDocument();
    await within(controllers()).findByText('No controller matches');
  });

  it('tells a taken ID (409) in the form, in the user language', async () => {
    server.devices.set('PIVOT-01', device('PIVOT-01'));
    const user = await renderScreen();
    await controllerRow('PIVOT-01');
    await user.click(screen.getByRole('button', { name: 'Register controller' }));
    const form = screen.getByRole('dialog', { name: 'Register a controller' });
    await user.type(within(form).getByLabelText('Machine ID'), 'PIVOT-01');
    await user.click(within(form).getByRole('button', { name: 'Register' }));

    const toast = await within(form).findByRole('alert');
    expect(toast).toHaveTextContent('Controller already registered');
    expect(within(form).getByLabelText('Machine ID')).toHaveAccessibleDescription(
      expect.stringContaining('A controller with this ID is already registered.'),
    );
    expect(screen.queryByRole('dialog', { name: /registered$/ })).not.toBeInTheDocument();
  });

  it("tells the server's own ID (409, reserved) in the form as such, not as taken", async () => {
    const user = await renderScreen();
    await within(controllers()).findByText('No controller matches');
    await user.click(screen.getByRole('button', { name: 'Register controller' }));
    const form = screen.getByRole('dialog', { name: 'Register a controller' });
    await user.type(within(form).getByLabelText('Machine ID'), 'pivot-server');
    await user.click(within(form).getByRole('button', { name: 'Register' }));

    const toast = await within(form).findByRole('alert');
    expect(toast).toHaveTextContent('ID reserved for the server');
    expect(within(form).getByLabelText('Machine ID')).toHaveAccessibleDescription(
      expect.stringContaining("This ID is the server's own on the message broker."),
    );
    expect(toast).not.toHaveTextContent('already registered');
  });

  it("tells an ID that names the broker operator's own account, and takes it over only when told to", async () => {
    const user = await renderScreen();
    await within(controllers()).findByText('No controller matches');
    await user.click(screen.getByRole('button', { name: 'Register controller' }));
    const form = screen.getByRole('dialog', { name: 'Register a controller' });
    await user.type(within(form).getByLabelText('Machine ID'), 'operator-bridge');
    await user.click(within(form).getByRole('button', { name: 'Register' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent("Account made by the broker's operator");
    expect(within(form).getByLabelText('Machine ID')).toHaveAccessibleDescription(
      expect.stringContaining('made by its operator, not by the server'),
    );
    const takeOver = within(form).getByRole('checkbox', { name: /Take over the broker's account operator-bridge/ });
    expect(takeOver).not.toBeChecked();
    await user.click(takeOver);
    await user.click(within(form).getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('dialog', { name: 'Controller operator-bridge registered' })).toBeInTheDocument();
    expect(server.calls.filter((call) => call === 'POST /api/device/')).toHaveLength(2);
  });

  it('tells an unreachable broker (503) in Polish, and shows no secret', async () => {
    server.devices.set('PIVOT-01', device('PIVOT-01'));
    server.failNext.set('POST /api/device/PIVOT-01/secret/', 'broker_unreachable');
    const user = await renderScreen('pl');
    const row = await controllerRow('PIVOT-01', 'Sterowniki');

    await user.click(within(row).getByRole('button', { name: 'Nowy sekret dla PIVOT-01' }));
    expect(screen.getByRole('dialog', { name: 'Nadać sterownikowi PIVOT-01 nowy sekret?' })).toHaveTextContent(
      'sterownik zostanie rozłączony',
    );
    await user.click(screen.getByRole('button', { name: 'Nadaj nowy sekret' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Broker wiadomości nie odpowiada');
    expect(toast).toHaveTextContent('Serwer nie może połączyć się z brokerem wiadomości.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the rejected messages of the admin panel', () => {
  const rejected = (changes: Partial<QuarantinedMessage>): QuarantinedMessage => ({
    id: 1,
    receivedAt: Date.UTC(2026, 3, 1, 8, 30, 15),
    machineId: 'PIVOT-01',
    deviceId: 'PIVOT-01',
    kind: 'telemetry',
    topic: 'pivot/v1/machines/PIVOT-01/telemetry',
    reason: 'invalid',
    detail: 'alarm: Control characters are not allowed',
    // A row kept before the server gave codes: its English detail shows as it is.
    explanation: null,
    payloadPreview: '{"alarm":"<img src=x onerror=alert(1)>\\u0000"}',
    payloadBytes: 48,
    payloadTruncated: false,
    ...changes,
  });

  it('lists each with its machine, the reason in the user language, the detail and the payload as text', async () => {
    server.quarantined = [
      rejected({
        id: 2,
        reason: 'too_large',
        detail: '1048621 bytes; at most 262144',
        explanation: { code: 'too_large', bytes: 1_048_621, limit: 262_144 },
        payloadPreview: '{"v":1,',
        payloadBytes: 1_048_621,
        payloadTruncated: true,
      }),
      rejected({ id: 1, machineId: 'PUMP-9', deviceId: 'ST-3', kind: 'weather', payloadPreview: 'a\u2400b' }),
      rejected({
        id: 3,
        kind: 'program',
        reason: 'too_large',
        detail: 'more than 10000 corners',
        explanation: { code: 'too_many_corners', corners: 10_001, limit: 10_000 },
        payloadPreview: '{"v":1,"program":',
      }),
    ];
    await renderScreen('pl', AdminRejectedMessagesRoute);

    const table = await screen.findByRole('table', { name: 'Odrzucone wiadomości' });
    await within(table).findByText('PUMP-9');
    const [, large, weather, corners] = within(table).getAllByRole('row');
    expect(large).toHaveTextContent('North field');
    expect(large).toHaveTextContent('Za duża');
    expect(large).toHaveTextContent(/1\s048\s621 B; odczytuje się najwyżej 262\s144 B/);
    expect(large).not.toHaveTextContent('bytes');
    expect(large).toHaveTextContent(/1\s048\s621 B; pokazano tylko początek/);
    expect(weather).toHaveTextContent('PUMP-9');
    expect(weather).toHaveTextContent('Stacja pogodowa ST-3');
    expect(weather).toHaveTextContent('Nieprawidłowa treść');
    expect(weather).toHaveTextContent('alarm: Control characters are not allowed');
    expect(weather).toHaveTextContent('a\u2400b');
    expect(weather).toHaveTextContent('48 B');
    // The one date style of every page, to the second here: set-aside messages come in bursts.
    expect(weather).toHaveTextContent(/01\.04\.2026, \d\d:30:15/);
    // A controller's program over the corner budget: why, in the reader's language.
    expect(corners).toHaveTextContent(/Jej wielokąty mają łącznie 10\s001 narożników; przyjmuje się najwyżej 10\s000/);
  });

  it('shows a payload that looks like markup as text, never as markup', async () => {
    server.quarantined = [rejected({})];
    await renderScreen('en', AdminRejectedMessagesRoute);
    const table = await screen.findByRole('table', { name: 'Rejected messages' });
    expect(await within(table).findByText('{"alarm":"<img src=x onerror=alert(1)>\\u0000"}')).toBeInTheDocument();
    expect(table.querySelector('img')).toBeNull();
    expect(table).toHaveTextContent('Invalid content');
  });

  it('gives the detail in the reader’s language from the server’s code and parameters', async () => {
    server.quarantined = [
      rejected({
        explanation: {
          code: 'invalid',
          issues: [
            { path: 'angle', problem: 'too_big', limit: 360 },
            { path: '(message)', problem: 'type' },
          ],
        },
      }),
    ];
    await renderScreen('en', AdminRejectedMessagesRoute);
    const table = await screen.findByRole('table', { name: 'Rejected messages' });
    expect(
      await within(table).findByText('angle: too large (limit 360); the whole message: wrong type of value'),
    ).toBeInTheDocument();
    expect(table).not.toHaveTextContent('Control characters are not allowed');
  });

  it('says when there is nothing', async () => {
    await renderScreen('en', AdminRejectedMessagesRoute);
    expect(
      await screen.findByText('No rejected messages: everything the machines sent was stored.'),
    ).toBeInTheDocument();
  });
});
