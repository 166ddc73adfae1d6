import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, type NavigateFunction, useNavigate } from 'react-router';
import { askEarly, dropEarlyAnswers, takeEarly, useDropEarlyAnswersOnLeave } from './early-answers';

afterEach(() => dropEarlyAnswers());

/** Lets a moment pass: the microtasks and a macrotask, in which Node reports an unhandled rejection. */
const aMoment = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('answers asked early', () => {
  it('are taken once, by the read of the same call', async () => {
    const ask = vi.fn(() => Promise.resolve('detail'));
    askEarly('sprinkler/5', ask);
    askEarly('sprinkler/5', ask);
    expect(ask).toHaveBeenCalledTimes(1);
    await expect(takeEarly('sprinkler/5')).resolves.toBe('detail');
    expect(takeEarly('sprinkler/5')).toBeUndefined();
  });

  it('fail for the screen that takes a failed one, and are no unhandled rejection when never taken', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      askEarly('sprinkler/5', () => Promise.reject(new Error('no route to the server')));
      askEarly('sprinkler/6', () => Promise.reject(new Error('no route to the server')));
      await aMoment();
      expect(unhandled).not.toHaveBeenCalled();
      await expect(takeEarly('sprinkler/6')).rejects.toThrow('no route to the server');
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('not taken are dropped once the visitor leaves the page they were asked for', async () => {
    let navigate: NavigateFunction | undefined;
    function Routes() {
      useDropEarlyAnswersOnLeave();
      navigate = useNavigate();
      return null;
    }
    render(
      <MemoryRouter initialEntries={['/sprinklers/5?history=01.04.2026-30.09.2026']}>
        <Routes />
      </MemoryRouter>,
    );
    const ask = vi.fn(() => Promise.resolve('the detail as it was then'));
    askEarly('sprinkler/5', ask);
    // Still on the page: its screen takes it.
    expect(takeEarly('sprinkler/5')).toBeDefined();

    askEarly('sprinkler/5', ask);
    await act(() => navigate!('/sprinklers'));
    await act(() => navigate!('/sprinklers/5?history=01.04.2026-30.09.2026'));
    // Back on the page later: its screen asks again, not for the first answer.
    expect(takeEarly('sprinkler/5')).toBeUndefined();
  });
});
