import type { SprinklerDetail } from '@pivot/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSprinklerDetail } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { applyLiveEvent } from '../hooks/use-live-sprinkler';
import { MachineState } from './machine-state';
import { MeasuredValue } from './measured-value';
import { StatusPanel } from './status-panel';

/** Noon where the tests run: the exact times shown are local. */
const NOW = new Date(2026, 10, 23, 12, 0, 0).getTime();
const LIVE = { connection: 'live', alarm: null } as const;

/** A machine reporting while it waters. */
const machine = (changes: Partial<SprinklerDetail> = {}) =>
  buildSprinklerDetail({
    distance: 402,
    angle: 137.5,
    status: 'front',
    speed: 60,
    pressure: 2.47,
    flow: 119.7,
    online: true,
    reportedAt: NOW,
    ...changes,
  });

const waitSeconds = (seconds: number) => act(() => vi.advanceTimersByTime(seconds * 1000));
const statusRegion = () => screen.getByRole('region', { name: /Status|Stan/ });

beforeEach(() => {
  // Date and the clock's ticks are faked; promises and userEvent's timeouts stay real.
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
});
afterEach(() => vi.useRealTimers());

describe('the machine page’s status', () => {
  it('shows a live machine’s values with the time of its report, which ages as time passes', async () => {
    await renderInApp(<StatusPanel sprinkler={machine()} live={LIVE} />);
    const panel = statusRegion();
    expect(panel).toHaveTextContent('Online');
    expect(within(panel).getByText('Forward')).toBeVisible();
    expect(within(panel).getByText('Last report')).toBeVisible();
    expect(within(panel).getByRole('button', { name: 'now' })).toBeVisible();
    expect(panel).toHaveTextContent('2.47 bar');
    await waitSeconds(12);
    expect(within(panel).getByRole('button', { name: '12 sec. ago' })).toBeVisible();
  });

  it('goes offline on its own once a moving machine is silent for 15 s, its values then the last known', async () => {
    await renderInApp(<StatusPanel sprinkler={machine()} live={LIVE} />);
    await waitSeconds(15);
    expect(statusRegion()).toHaveTextContent('Online');
    await waitSeconds(1);
    const panel = statusRegion();
    expect(panel).not.toHaveTextContent('Online');
    expect(within(panel).getByText('Offline')).toBeVisible();
    expect(within(panel).getByText('was moving forward')).toBeVisible();
    expect(within(panel).getByText('Last known values')).toBeVisible();
    expect(within(panel).getByRole('button', { name: '16 sec. ago' })).toBeVisible();
    // Still shown, dimmed, but never as live.
    expect(within(panel).getByText('2.47 bar')).toHaveClass('font-normal');
    expect(within(panel).queryByText('Forward')).toBeNull();
  });

  it('gives a machine at rest 3 minutes of silence', async () => {
    await renderInApp(<StatusPanel sprinkler={machine({ status: 'stop', flow: 0 })} live={LIVE} />);
    await waitSeconds(180);
    expect(statusRegion()).toHaveTextContent('Online');
    await waitSeconds(1);
    expect(statusRegion()).toHaveTextContent(/Offline\s*was stopped/);
    expect(statusRegion()).toHaveTextContent(/Last known values\s*3 min. ago/);
  });

  it('is offline at once when the broker says so, in Polish too', async () => {
    await renderInApp(<StatusPanel sprinkler={machine({ online: false, reportedAt: NOW - 120_000 })} live={LIVE} />, {
      locale: 'pl',
    });
    const panel = statusRegion();
    expect(panel).toHaveTextContent(/Bez łączności\s*jechała do przodu/);
    expect(panel).toHaveTextContent(/Ostatnie znane wartości\s*2 min temu/);
  });

  it('says so when the machine never reported, with no values', async () => {
    const never = machine({
      reportedAt: null,
      status: null,
      angle: null,
      distance: null,
      speed: null,
      pressure: null,
      flow: null,
    });
    await renderInApp(<StatusPanel sprinkler={never} live={LIVE} />);
    expect(statusRegion()).toHaveTextContent('This machine has not reported yet, so there are no values to show.');
    expect(within(statusRegion()).queryByText('Pressure')).toBeNull();
  });

  it('gives the exact date and time of the report on hover, and on a tap or Enter', async () => {
    await renderInApp(<StatusPanel sprinkler={machine({ reportedAt: NOW - 125_000 })} live={LIVE} />);
    const when = screen.getByRole('button', { name: '2 min. ago' });
    expect(when).toHaveAttribute('title', '23/11/2026, 11:57:55');
    expect(when.querySelector('time')).toHaveAttribute('dateTime', new Date(NOW - 125_000).toISOString());
    expect(when).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(when);
    expect(when).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('23/11/2026, 11:57:55')).toBeVisible();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByText('23/11/2026, 11:57:55')).toBeNull();
  });
});

describe('live events on the machine page', () => {
  const telemetry = (timestamp: number, status: 'front' | 'stop' = 'front') => ({
    type: 'telemetry' as const,
    timestamp,
    status,
    angle: 140,
    distance: 402,
    speed: 60,
    pressure: 2.5,
    flow: status === 'stop' ? 0 : 120,
    alarm: null,
    currentPosition: {
      type: 'Feature' as const,
      geometry: { type: 'LineString' as const, coordinates: [] },
      properties: {},
    },
  });

  it('bring the time of each new report, and a presence event whether the machine is connected', () => {
    const silent = machine({ online: false, reportedAt: NOW - 60_000 });
    const reported = applyLiveEvent(silent, telemetry(NOW - 1000));
    expect(reported).toMatchObject({ online: true, reportedAt: NOW - 1000, angle: 140 });
    expect(applyLiveEvent(reported, { type: 'presence', online: false })).toMatchObject({
      online: false,
      reportedAt: NOW - 1000,
    });
  });

  it('leave the values alone for a report older than the one shown', () => {
    const shown = machine({ reportedAt: NOW, angle: 137.5 });
    expect(applyLiveEvent(shown, telemetry(NOW - 30_000, 'stop'))).toMatchObject({
      reportedAt: NOW,
      angle: 137.5,
      status: 'front',
    });
  });
});

describe('a machine in the machines table', () => {
  function Row({ sprinkler }: { sprinkler: SprinklerDetail }) {
    return (
      <p data-testid="row">
        <MeasuredValue machine={sprinkler}>2.47 bar</MeasuredValue>
        <MachineState machine={sprinkler} />
      </p>
    );
  }

  it('dims its values and says offline, with the time they were last known, once it falls silent', async () => {
    await renderInApp(<Row sprinkler={machine({ reportedAt: NOW - 10_000 })} />);
    const row = screen.getByTestId('row');
    expect(screen.getByText('2.47 bar')).not.toHaveClass('text-ink-muted');
    expect(row).toHaveTextContent('Forward');
    expect(row).toHaveTextContent('10 sec. ago');
    await waitSeconds(6);
    expect(screen.getByText('2.47 bar')).toHaveClass('text-ink-muted');
    expect(row).toHaveTextContent(/Offline\s*was moving forward/);
    expect(row).toHaveTextContent(/Last known\s*16 sec. ago/);
  });

  it('says it never reported', async () => {
    await renderInApp(<Row sprinkler={machine({ reportedAt: null, status: null, online: false })} />, { locale: 'pl' });
    expect(screen.getByTestId('row')).toHaveTextContent('Bez łączności');
    expect(screen.getByTestId('row')).toHaveTextContent('Brak odczytów');
  });
});
