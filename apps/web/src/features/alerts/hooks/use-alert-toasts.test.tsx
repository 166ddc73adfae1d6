import { type Alert, AlertSchema } from '@pivot/contracts';
import { buildUser } from '@/test-factories';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { session } from '@/lib/session';
import { FakeEventStreams } from '@/test-event-streams';
import { renderInApp } from '@/test-utils';
import { Toaster } from '@/ui/toast/toaster';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { useAlertToasts } from './use-alert-toasts';

const FARMER = buildUser();

const alert = (changes: Partial<Alert> = {}): Alert =>
  AlertSchema.parse({
    logEntryId: 41,
    kind: 'alarm',
    phase: 'began',
    sprinklerId: 7,
    sprinklerName: 'North field',
    detail: 'pressure_loss',
    timestamp: Date.UTC(2026, 5, 1, 6, 30),
    ...changes,
  });

/** GET /api/alerts/events in miniature (FakeEventStreams), with alerts to send. */
class FakeAlertEvents extends FakeEventStreams {
  send(sent: Alert) {
    this.sendEvent('alert', sent);
  }
}

let events: FakeAlertEvents;
let requested: string[];
let logChanges: (Alert | null)[];

/** Where the app is: a toast's link moves it. */
function Location() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function AlertsFollower() {
  useAlertToasts((changed) => logChanges.push(changed));
  return null;
}

async function renderFollower(locale: Locale = 'en') {
  await renderInApp(
    <>
      <AlertsFollower />
      <Toaster />
      <Routes>
        <Route path="*" element={<Location />} />
      </Routes>
    </>,
    { locale, path: locale === 'en' ? '/en/dashboard/activity' : '/dashboard/activity' },
  );
  await waitFor(() => expect(events.streams).toHaveLength(1));
}

beforeEach(() => {
  events = new FakeAlertEvents();
  requested = [];
  logChanges = [];
  session.signIn(FARMER, 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    requested.push(`${init.method ?? 'GET'} ${pathname} ${new Headers(init.headers).get('Authorization')}`);
    if (pathname === '/api/alerts/events') return events.open(init.signal);
    return new Response(JSON.stringify({ code: 'not_found', message: 'no such call' }), { status: 404 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

describe('live alerts', () => {
  it('follow the alert stream with the session token, once', async () => {
    await renderFollower();
    expect(requested).toEqual(['GET /api/alerts/events Bearer access-1']);
  });

  it('show an incident that begins as a warning, with the machine, the detail and a link to the machine', async () => {
    const user = userEvent.setup();
    await renderFollower();
    act(() => events.send(alert()));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveAttribute('data-variant', 'warning');
    expect(within(toast).getByText('Alarm')).toBeInTheDocument();
    expect(toast).toHaveTextContent('Machine North field reports an alarm: water pressure lost');
    expect(logChanges).toEqual([alert()]);

    await user.click(within(toast).getByRole('link', { name: 'Open the machine' }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent('/en/sprinklers/7');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lead an "Irrigation due" to the machine\'s Autopilot card, whose one tap starts the pass', async () => {
    await renderFollower();
    act(() => events.send(alert({ kind: 'irrigation_due', detail: 'Wschód' })));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByRole('link', { name: 'Open the autopilot' })).toHaveAttribute(
      'href',
      '/en/sprinklers/7#autopilot',
    );
  });

  it('show an incident that ends as a success', async () => {
    await renderFollower();
    act(() => events.send(alert({ kind: 'low_pressure', phase: 'ended', detail: '2.4 bar' })));
    const toast = await screen.findByText('Low pressure over');
    expect(toast.closest('[data-variant]')).toHaveAttribute('data-variant', 'success');
    expect(toast.closest('[data-variant]')).toHaveTextContent('Pressure at machine North field is back to 2.4 bar');
  });

  it('speak the current language, with its decimal comma and the alarm reason in words, and read well without a detail', async () => {
    await renderFollower('pl');
    act(() => {
      events.send(alert({ detail: '' }));
      events.send(alert({ kind: 'offline', detail: '' }));
      events.send(alert({ kind: 'low_pressure', detail: '0.2 bar' }));
      events.send(alert({ detail: 'pressure_loss' }));
      events.send(alert({ detail: 'gearbox_jam' }));
    });
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(5));
    const [alarm, offline, lowPressure, pressureLoss, unknownReason] = screen.getAllByRole('alert');
    expect(lowPressure).toHaveTextContent('Ciśnienie na maszynie North field spadło do 0,2 bar podczas pracy');
    expect(pressureLoss).toHaveTextContent('Maszyna North field zgłasza alarm: spadek ciśnienia wody');
    // A reason the protocol does not name is shown as the machine sent it.
    expect(unknownReason).toHaveTextContent('Maszyna North field zgłasza alarm: gearbox_jam');
    expect(alarm).toHaveTextContent('AlarmMaszyna North field zgłasza alarmOtwórz maszynę');
    expect(offline).toHaveTextContent('Maszyna bez łączności');
    expect(offline).toHaveTextContent('Maszyna North field straciła połączenie lub przestała raportować');
    expect(within(offline!).getByRole('link', { name: 'Otwórz maszynę' })).toHaveAttribute('href', '/sprinklers/7');
  });

  it('skip events that are not alerts or not in the contract', async () => {
    await renderFollower();
    act(() => {
      events.write(': heartbeat\n\n');
      events.write('event: alert\ndata: {not json\n\n');
      events.write(`event: alert\ndata: ${JSON.stringify({ ...alert(), kind: 'flood' })}\n\n`);
      events.write(`event: other\ndata: ${JSON.stringify(alert())}\n\n`);
      events.send(alert({ kind: 'unexpected_stop', detail: '(128°)' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Machine North field stopped without a stop command (128°)',
    );
    expect(toastStore.get()).toHaveLength(1);
    expect(logChanges).toHaveLength(1);
  });

  it('open the stream again after a drop, and have the log read again for what was missed', async () => {
    await renderFollower();
    act(() => events.drop());
    await waitFor(() => expect(events.streams).toHaveLength(2));
    await waitFor(() => expect(logChanges).toEqual([null]));
    act(() => events.send(alert({ kind: 'offline', phase: 'ended' })));
    expect(await screen.findByText('Machine back online')).toBeInTheDocument();
  });

  it('stop following when the page closes', async () => {
    const { unmount } = await renderInApp(<AlertsFollower />);
    await waitFor(() => expect(events.streams).toHaveLength(1));
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(events.streams).toHaveLength(1);
  });
});
