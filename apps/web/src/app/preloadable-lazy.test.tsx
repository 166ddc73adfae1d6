import { render, screen } from '@testing-library/react';
import { type ReactNode, Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy';

function Field({ name }: { name: string }) {
  return <p>Field {name}</p>;
}

const shown = (element: ReactNode) => render(<Suspense fallback={<p>Loading</p>}>{element}</Suspense>);

describe('a preloadable lazy component', () => {
  it('renders at once, never its fallback, once preloaded', async () => {
    const Lazy = preloadableLazy(async () => ({ default: Field }));
    await Lazy.preload();
    shown(<Lazy name="north" />);
    expect(screen.getByText('Field north')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('suspends until its code has come when not preloaded', async () => {
    const Lazy = preloadableLazy(async () => ({ default: Field }));
    shown(<Lazy name="south" />);
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('Field south')).toBeInTheDocument();
  });

  it('fetches its code once, however often it is preloaded and rendered', async () => {
    let loads = 0;
    const Lazy = preloadableLazy(async () => {
      loads += 1;
      return { default: Field };
    });
    await Promise.all([Lazy.preload(), Lazy.preload()]);
    shown(<Lazy name="east" />);
    expect(loads).toBe(1);
  });
});
