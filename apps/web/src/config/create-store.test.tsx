import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, useHydrated, useStore } from './create-store';

const mode = createStore<'light' | 'dark'>('dark', 'light');

function Shown() {
  const hydrated = useHydrated();
  return (
    <button type="button" disabled={!hydrated}>
      {useStore(mode)}
    </button>
  );
}

const container = document.createElement('div');
afterEach(() => container.remove());

describe('a store on a page rendered at build time', () => {
  it('hydrates with the first-visit value and disabled controls, then shows its own value, live', async () => {
    // The page's HTML as the build wrote it, parsed as the browser parses a page.
    const page = new DOMParser().parseFromString(renderToString(<Shown />), 'text/html');
    container.append(...page.body.childNodes);
    document.body.append(container);
    expect(container.innerHTML).toBe('<button type="button" disabled="">light</button>');
    const errors: unknown[] = [];
    const button = container.querySelector('button');
    const root = await act(async () =>
      hydrateRoot(container, <Shown />, { onRecoverableError: (error) => errors.push(error) }),
    );
    expect(errors).toEqual([]);
    // The same element, taken over rather than rendered anew.
    expect(container.querySelector('button')).toBe(button);
    expect(button).toHaveTextContent('dark');
    expect(button).toBeEnabled();
    act(() => root.unmount());
  });
});
