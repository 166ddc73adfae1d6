import {
  type AccountAlertSettings,
  AccountAlertSettingsSchema,
  AlertSettingsSchema,
  ERROR_STATUS,
  type ErrorCode,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
  SprinklerListResponseSchema,
} from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Locale } from '@/config/locales';
import { type ApiFailure, onApiFailure } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerListItem, buildUser } from '@/test-factories';
import { answerFetchWith, renderInApp } from '@/test-utils';
import { DialogHost } from '@/ui/dialog/dialog-host';
import { dialogStore } from '@/ui/dialog/dialogs';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { AlertSettingsCard } from './alert-settings-card';

const FARMER = buildUser();

const machine = (id: number, internalId: string, name: string) =>
  buildSprinklerListItem({ id, internalId, name, online: true });

const DEFAULTS = { kinds: ['alarm', 'unexpected_stop', 'offline'], channels: ['in_app', 'email'] } as const;

/**
 * The alert settings calls of the server in miniature. Requests and answers go through the
 * contracts' schemas, so a fake that drifted from them fails here rather than pass.
 */
class FakeServer {
  machines = [machine(1, 'PIVOT-01', 'North field'), machine(2, 'PIVOT-02', 'South field')];
  settings: AccountAlertSettings = {
    ...DEFAULTS,
    kinds: [...DEFAULTS.kinds],
    channels: [...DEFAULTS.channels],
    mutedMachineIds: [],
    usesDefaults: true,
  };
  pushSubscriptions: string[] = [];
  failNext = new Map<string, ErrorCode>();
  calls: { call: string; body: unknown }[] = [];

  answer(method: string, path: string, body: unknown): [status: number, body?: unknown] {
    const call = `${method} ${path}`;
    this.calls.push({ call, body });
    const failure = this.failNext.get(call);
    if (failure) {
      this.failNext.delete(call);
      return [ERROR_STATUS[failure], { code: failure, message: 'from the server' }];
    }
    if (call === 'GET /api/sprinkler/') return [200, z.encode(SprinklerListResponseSchema, this.machines)];
    if (call === 'GET /api/account/alerts/') return [200, AccountAlertSettingsSchema.parse(this.settings)];
    if (call === 'PUT /api/account/alerts/') {
      this.settings = { ...AlertSettingsSchema.parse(body), usesDefaults: false };
      return [200, AccountAlertSettingsSchema.parse(this.settings)];
    }
    if (call === 'DELETE /api/account/alerts/') {
      this.settings = {
        kinds: [...DEFAULTS.kinds],
        channels: [...DEFAULTS.channels],
        mutedMachineIds: [],
        usesDefaults: true,
      };
      return [200, AccountAlertSettingsSchema.parse(this.settings)];
    }
    if (call === 'GET /api/push/key') return [200, { publicKey: 'BNc4-bGx_cQ' }];
    if (call === 'POST /api/push/subscriptions/') {
      this.pushSubscriptions.push(PushSubscriptionBodySchema.parse(body).endpoint);
      return [204];
    }
    if (call === 'DELETE /api/push/subscriptions/') {
      const { endpoint } = PushUnsubscribeBodySchema.parse(body);
      this.pushSubscriptions = this.pushSubscriptions.filter((other) => other !== endpoint);
      return [204];
    }
    return [404, { code: 'not_found', message: 'no such call' }];
  }
}

/**
 * A browser's Push API with the app's service worker registered: subscribing asks the user, who
 * answers `answer`; `unreachable` is a user who allows it in a browser whose push service does not answer.
 */
function installBrowserPush(answer: 'granted' | 'denied' | 'unreachable') {
  let subscription: { endpoint: string; toJSON: () => unknown; unsubscribe: () => Promise<boolean> } | null = null;
  const subscribeKeys: unknown[] = [];
  const notification = { permission: 'default' as NotificationPermission };
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: async (options: { applicationServerKey: Uint8Array }) => {
      subscribeKeys.push([...options.applicationServerKey]);
      notification.permission = answer === 'denied' ? 'denied' : 'granted';
      if (answer === 'denied') throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
      if (answer === 'unreachable') throw new DOMException('Registration failed - push service error', 'AbortError');
      const endpoint = 'https://push.example/send/abc';
      subscription = {
        endpoint,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BKx-p256', auth: 'au_th' } }),
        unsubscribe: async () => {
          subscription = null;
          return true;
        },
      };
      return subscription;
    },
  };
  vi.stubGlobal('PushManager', vi.fn());
  vi.stubGlobal('Notification', notification);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return { subscribeKeys };
}

let server: FakeServer;
/** Failures the card leaves to the app, which shows them as toasts in the user's language. */
let failures: ApiFailure[];
let stopListening: () => void;

beforeAll(() => {
  stopListening = onApiFailure((failure) => failures.push(failure));
});
afterAll(() => stopListening());

beforeEach(() => {
  server = new FakeServer();
  failures = [];
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(FARMER, 'access-1');
  answerFetchWith((method, pathname, body) => server.answer(method, pathname, body));
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  queryClient.clear();
  for (const toast of toastStore.get()) dismissToast(toast.id);
  for (const dialog of dialogStore.get()) dialog.settle(false);
});

async function renderCard(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <AlertSettingsCard />
      <Toaster />
      <DialogHost />
    </QueryClientProvider>,
    { locale },
  );
  const card = screen.getByRole('region', { name: locale === 'en' ? 'Alerts' : 'Alerty' });
  await within(card).findByRole('button', {
    name: locale === 'en' ? 'Save alert settings' : 'Zapisz ustawienia alertów',
  });
  return { user, card };
}

const savedBodies = () =>
  server.calls.filter(({ call }) => call === 'PUT /api/account/alerts/').map(({ body }) => body);

describe('the alert settings of the account page', () => {
  it('show the defaults with every kind and channel explained, and the machines to mute', async () => {
    const { card } = await renderCard();
    expect(card).toHaveTextContent("Administrators' defaults");
    expect(within(card).queryByRole('button', { name: 'Reset to defaults' })).not.toBeInTheDocument();

    const kinds = within(card).getByRole('group', { name: 'What to alert you about' });
    expect(within(kinds).getByRole('checkbox', { name: 'Alarm' })).toBeChecked();
    expect(within(kinds).getByRole('checkbox', { name: 'Unexpected stop' })).toHaveAccessibleDescription(
      'The machine stopped while moving, and nobody sent it a stop.',
    );
    expect(within(kinds).getByRole('checkbox', { name: 'Machine offline' })).toBeChecked();
    expect(within(kinds).getByRole('checkbox', { name: 'Low pressure' })).not.toBeChecked();

    const channels = within(card).getByRole('group', { name: 'How to alert you' });
    expect(within(channels).getByRole('checkbox', { name: 'In the app' })).toBeChecked();
    expect(within(channels).getByRole('checkbox', { name: 'E-mail' })).toBeChecked();
    expect(within(channels).getByRole('checkbox', { name: 'Push notifications' })).not.toBeChecked();

    const muted = within(card).getByRole('group', { name: 'Muted machines' });
    expect(await within(muted).findByRole('switch', { name: 'Mute North field' })).not.toBeChecked();
    expect(within(muted).getByRole('switch', { name: 'Mute South field' })).not.toBeChecked();
    expect(muted).toHaveTextContent('PIVOT-02');
  });

  it('save the chosen kinds, channels and muted machines, and say so', async () => {
    const { user, card } = await renderCard();
    await user.click(within(card).getByRole('checkbox', { name: 'Low pressure' }));
    await user.click(within(card).getByRole('checkbox', { name: 'Alarm' }));
    await user.click(within(card).getByRole('checkbox', { name: 'E-mail' }));
    await user.click(await within(card).findByRole('switch', { name: 'Mute South field' }));
    await user.click(within(card).getByRole('button', { name: 'Save alert settings' }));

    expect(await screen.findByText('Your alert settings are saved')).toBeInTheDocument();
    expect(savedBodies()).toEqual([
      { kinds: ['unexpected_stop', 'offline', 'low_pressure'], channels: ['in_app'], mutedMachineIds: [2] },
    ]);
    expect(card).toHaveTextContent('Your own settings');
    expect(within(card).getByRole('switch', { name: 'Mute South field' })).toBeChecked();
    expect(within(card).getByRole('checkbox', { name: 'Low pressure' })).toBeChecked();
  });

  it('warn when nothing would alert the user', async () => {
    const { user, card } = await renderCard();
    await user.click(within(card).getByRole('checkbox', { name: 'In the app' }));
    expect(card).not.toHaveTextContent('you get no alerts');
    await user.click(within(card).getByRole('checkbox', { name: 'E-mail' }));
    expect(card).toHaveTextContent('With no incident or no channel chosen, you get no alerts.');
  });

  it('go back to the defaults after a confirmation', async () => {
    server.settings = { kinds: ['alarm'], channels: ['email'], mutedMachineIds: [1], usesDefaults: false };
    const { user, card } = await renderCard();
    expect(card).toHaveTextContent('Your own settings');

    await user.click(within(card).getByRole('button', { name: 'Reset to defaults' }));
    const confirm = screen.getByRole('dialog', { name: "Go back to the administrators' defaults?" });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.map(({ call }) => call)).not.toContain('DELETE /api/account/alerts/');

    await user.click(within(card).getByRole('button', { name: 'Reset to defaults' }));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText("Your alerts follow the administrators' defaults again")).toBeInTheDocument();
    expect(card).toHaveTextContent("Administrators' defaults");
    expect(within(card).getByRole('checkbox', { name: 'E-mail' })).toBeChecked();
    expect(within(card).getByRole('switch', { name: 'Mute North field' })).not.toBeChecked();
  });

  it('leave a refused save to the app to tell, and keep what was chosen', async () => {
    server.failNext.set('PUT /api/account/alerts/', 'validation_error');
    const { user, card } = await renderCard('pl');
    await user.click(within(card).getByRole('checkbox', { name: 'Niskie ciśnienie' }));
    await user.click(within(card).getByRole('button', { name: 'Zapisz ustawienia alertów' }));

    await vi.waitFor(() => expect(failures.map((failure) => failure.error?.code)).toEqual(['validation_error']));
    expect(screen.queryByText('Ustawienia alertów zostały zapisane')).not.toBeInTheDocument();
    expect(within(card).getByRole('checkbox', { name: 'Niskie ciśnienie' })).toBeChecked();
    expect(card).toHaveTextContent('Ustawienia domyślne administratorów');
  });

  it('say when the settings cannot be loaded', async () => {
    server.failNext.set('GET /api/account/alerts/', 'forbidden');
    await renderInApp(
      <QueryClientProvider client={queryClient}>
        <AlertSettingsCard />
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('The alert settings could not be loaded. Reload the page to try again.'),
    ).toBeInTheDocument();
  });
});

describe('push notifications in the alert settings', () => {
  it('explain that a browser without the Push API cannot have them, and offer no button', async () => {
    const { card } = await renderCard();
    const push = within(card).getByTestId('browser-push');
    expect(await within(push).findByText('This browser cannot receive push notifications.')).toBeInTheDocument();
    expect(within(push).queryByRole('button')).not.toBeInTheDocument();
  });

  it('explain that they need the service worker, which the development server does not register', async () => {
    installBrowserPush('granted');
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => undefined },
    });
    const { card } = await renderCard();
    expect(
      await within(within(card).getByTestId('browser-push')).findByText(/background service is not running/),
    ).toBeInTheDocument();
  });

  it('explain that notifications blocked for the site must be allowed in the browser', async () => {
    installBrowserPush('granted');
    vi.stubGlobal('Notification', { permission: 'denied' });
    const { card } = await renderCard('pl');
    expect(
      await within(within(card).getByTestId('browser-push')).findByText(/Powiadomienia dla tej witryny są zablokowane/),
    ).toBeInTheDocument();
  });

  it('subscribe this browser with the server key, tell the server, and stop again', async () => {
    const { subscribeKeys } = installBrowserPush('granted');
    const { user, card } = await renderCard();
    const push = within(card).getByTestId('browser-push');
    expect(await within(push).findByText('This browser does not receive them yet.')).toBeInTheDocument();

    await user.click(within(push).getByRole('button', { name: 'Allow in this browser' }));
    expect(await within(push).findByText('This browser receives them.')).toBeInTheDocument();
    expect(screen.getByText('This browser will show alert notifications')).toBeInTheDocument();
    // BNc4-bGx_cQ in base64url is these eight bytes.
    expect(subscribeKeys).toEqual([[0x04, 0xd7, 0x38, 0xf9, 0xb1, 0xb1, 0xfd, 0xc4]]);
    expect(server.pushSubscriptions).toEqual(['https://push.example/send/abc']);
    // The push channel itself is chosen in the form: until it is, the browser gets nothing.
    expect(push).toHaveTextContent('Tick “Push notifications” and save, or this browser gets none.');
    await user.click(within(card).getByRole('checkbox', { name: 'Push notifications' }));
    expect(push).not.toHaveTextContent('Tick “Push notifications”');

    await user.click(within(push).getByRole('button', { name: 'Stop in this browser' }));
    expect(await within(push).findByText('This browser does not receive them yet.')).toBeInTheDocument();
    expect(server.pushSubscriptions).toEqual([]);
  });

  it('say when the user did not allow them', async () => {
    installBrowserPush('denied');
    const { user, card } = await renderCard();
    const push = within(card).getByTestId('browser-push');
    await user.click(await within(push).findByRole('button', { name: 'Allow in this browser' }));
    expect(await screen.findByText('Notifications were not allowed')).toBeInTheDocument();
    expect(within(push).getByText(/Notifications are blocked for this site/)).toBeInTheDocument();
    expect(server.pushSubscriptions).toEqual([]);
  });

  it('say when the push service could not be reached, and leave the browser as it was', async () => {
    installBrowserPush('unreachable');
    const { user, card } = await renderCard();
    const push = within(card).getByTestId('browser-push');
    await user.click(await within(push).findByRole('button', { name: 'Allow in this browser' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('This browser could not be set up for notifications');
    expect(toast).toHaveTextContent('Its push service did not answer. Try again later.');
    expect(within(push).getByText('This browser does not receive them yet.')).toBeInTheDocument();
    expect(server.pushSubscriptions).toEqual([]);
  });
});
