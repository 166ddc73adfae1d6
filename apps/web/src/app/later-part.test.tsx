import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { connection } from '@/lib/connection';
import { renderInApp } from '@/test-utils';
import { laterPart } from './later-part';

const NOTE = 'Not loaded yet: no connection. It will load when the connection returns.';

function Card({ name }: { name: string }) {
  return <p>Card of {name}</p>;
}

/** A part whose code fails to come `failures` times, then comes; counts the attempts. */
function partFailing(failures: number) {
  const attempts = { count: 0 };
  const Part = laterPart(async () => {
    attempts.count += 1;
    if (attempts.count <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return Card;
  });
  return { Part, attempts };
}

afterEach(() => {
  // The connection is the app's one: each test leaves it as it found it.
  act(() => connection.noteAnswer());
});

describe('laterPart', () => {
  it('shows the part once its code has come', async () => {
    const { Part } = partFailing(0);
    await renderInApp(<Part name="Pole" />);
    expect(await screen.findByText('Card of Pole')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says in its place that it has not been loaded while offline, and comes when the connection is back', async () => {
    act(() => connection.noteNoAnswer());
    const { Part, attempts } = partFailing(1);
    await renderInApp(
      <>
        <h1>Last known values</h1>
        <Part name="Pole" />
      </>,
    );
    expect(await screen.findByRole('status')).toHaveTextContent(NOTE);
    expect(screen.getByRole('heading', { name: 'Last known values' })).toBeInTheDocument();
    expect(attempts.count).toBe(1);

    act(() => connection.noteAnswer());
    expect(await screen.findByText('Card of Pole')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(attempts.count).toBe(2);
  });

  it('tells the connection of a failure while the app thought it online, once', async () => {
    const { Part, attempts } = partFailing(2);
    await renderInApp(<Part name="Pole" />);
    expect(await screen.findByRole('status')).toHaveTextContent(NOTE);
    expect(connection.isOnline()).toBe(false);

    // The server answers again, but the part's code still does not come: the note stays and the
    // connection is not said to be lost a second time.
    act(() => connection.noteAnswer());
    await waitFor(() => expect(attempts.count).toBe(2));
    expect(await screen.findByRole('status')).toHaveTextContent(NOTE);
    expect(connection.isOnline()).toBe(true);

    // The next time the connection comes back, it is fetched again.
    act(() => connection.noteNoAnswer());
    act(() => connection.noteAnswer());
    expect(await screen.findByText('Card of Pole')).toBeInTheDocument();
    expect(attempts.count).toBe(3);
  });
});
