import type { SprinklerDetail } from '@pivot/contracts';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connection } from '@/lib/connection';
import { buildSprinklerDetail } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { ConnectionLostLine } from './connection-lost-line';
import { MachineState } from './machine-state';
import { MeasuredValue } from './measured-value';
import { MotionControls } from './motion-controls';
import { StatusPanel } from './status-panel';

/** 14:02 where the tests run: the times shown are local. */
const NOW = new Date(2026, 10, 27, 14, 2, 0).getTime();
const LIVE = { connection: 'live', alarm: null } as const;

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
    level: 'control',
    ...changes,
  });

const waitSeconds = (seconds: number) => act(() => vi.advanceTimersByTime(seconds * 1000));
const loseConnection = () => act(() => connection.noteNoAnswer());
const regainConnection = () => act(() => connection.noteAnswer());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
  connection.noteAnswer();
});
afterEach(() => {
  connection.noteAnswer();
  vi.useRealTimers();
});

describe('the no-connection line', () => {
  it('is not there while the connection is', async () => {
    await renderInApp(<ConnectionLostLine />);
    expect(screen.queryByTestId('no-connection')).toBeNull();
  });

  it('says, in English, as of when what is shown was known, and on a machine’s page that nothing can be sent', async () => {
    await renderInApp(<ConnectionLostLine controls />);
    await waitSeconds(40);
    loseConnection();
    const line = screen.getByRole('status');
    expect(line).toHaveTextContent('No connection – showing what was known at 14:02');
    expect(line).toHaveTextContent('Nothing that changes a machine can be sent');
    regainConnection();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says it in Polish too, with the date once what was known is of another day', async () => {
    await renderInApp(<ConnectionLostLine />, { locale: 'pl' });
    loseConnection();
    expect(screen.getByRole('status')).toHaveTextContent(/^Brak połączenia – pokazuję stan z 14:02$/);
    regainConnection();
    // Lost a day after the last answer: that answer's date is written.
    await waitSeconds(24 * 3600);
    loseConnection();
    expect(screen.getByRole('status')).toHaveTextContent('Brak połączenia – pokazuję stan z 27.11.2026, 14:02');
  });
});

describe('the machines list without a connection', () => {
  it('shows each machine’s values dimmed as the last known, with the time of its report', async () => {
    await renderInApp(
      <>
        <MeasuredValue machine={machine()}>2.47 bar</MeasuredValue>
        <MachineState machine={machine()} />
      </>,
    );
    expect(screen.getByText('2.47 bar')).not.toHaveClass('text-ink-muted');
    loseConnection();
    await waitSeconds(30);
    expect(screen.getByText('2.47 bar')).toHaveClass('text-ink-muted');
    expect(screen.getByText('Forward')).toBeVisible();
    expect(screen.getByText('Last known')).toBeVisible();
    expect(screen.getByRole('button', { name: '30 sec. ago' })).toBeVisible();
  });
});

describe('a machine’s page without a connection', () => {
  it('keeps the values as they were known, with their time, and the machine as it was then', async () => {
    await renderInApp(<StatusPanel sprinkler={machine()} live={LIVE} />);
    loseConnection();
    // A minute on, the silence is the app's, not the machine's: it is not called offline.
    await waitSeconds(60);
    const panel = screen.getByRole('region', { name: 'Status' });
    expect(panel).toHaveTextContent('Online');
    expect(within(panel).getByText('Forward')).toBeVisible();
    expect(within(panel).getByText('Last known values')).toBeVisible();
    expect(within(panel).getByRole('button', { name: '1 min. ago' })).toHaveAttribute('title', '27/11/2026, 14:02:00');
    expect(within(panel).getByText('2.47 bar')).toHaveClass('font-normal');

    // Back, and still nothing from the machine: now its own silence counts, until the page reads it again.
    regainConnection();
    expect(panel).toHaveTextContent(/Offline\s*was moving forward/);
  });

  it('disables the motion buttons, saying why, and gives them back with the connection', async () => {
    await renderInApp(<MotionControls sprinklerId={1} name="North field" machine={machine()} />);
    const motion = screen.getByRole('region', { name: 'Motion' });
    loseConnection();
    for (const name of ['Forward', 'Reverse', 'Stop']) {
      const button = within(motion).getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('title', 'No connection: nothing can be sent to the machine until it is back.');
    }
    expect(motion).toHaveTextContent('No connection: nothing can be sent to the machine until it is back.');

    regainConnection();
    for (const name of ['Forward', 'Reverse', 'Stop']) {
      expect(within(motion).getByRole('button', { name })).toBeEnabled();
    }
    expect(motion).not.toHaveTextContent('No connection');
  });
});
