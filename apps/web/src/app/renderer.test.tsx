import { render, screen } from '@testing-library/react';
import * as Compat from 'preact/compat';
import * as CompatClient from 'preact/compat/client';
import * as React from 'react';
import * as ReactDomClient from 'react-dom/client';
import { describe, expect, it } from 'vitest';

// vite.config.ts: the app ships Preact in place of React DOM; the unit tests must render with it
// too (vitest.config.ts), or they would test a renderer the users never get.
describe('the renderer', () => {
  it('is Preact wherever React is imported', () => {
    expect(React.useState).toBe(Compat.useState);
    expect(ReactDomClient.createRoot).toBe(CompatClient.createRoot);
  });

  it('renders what the testing library renders, with a React 19 hook', () => {
    const Value = React.createContext('none');
    function Shown() {
      return <p>{React.use(Value)}</p>;
    }
    render(
      <Value.Provider value="Preact">
        <Shown />
      </Value.Provider>,
    );
    expect(screen.getByText('Preact')).toBeInTheDocument();
    expect(Compat.isValidElement(<Shown />)).toBe(true);
  });
});
