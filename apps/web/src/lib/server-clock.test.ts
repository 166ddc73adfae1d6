import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteServerDate, serverNow, subscribeToClock } from './server-clock';

const RECEIVED = Date.UTC(2026, 10, 23, 12, 0, 0, 300);
const httpDate = (ms: number) => new Date(ms).toUTCString();

afterEach(() => {
  noteServerDate(httpDate(Date.now()));
  vi.useRealTimers();
});

describe('the server’s clock', () => {
  it('is the browser’s while the two agree within the Date header’s second', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: RECEIVED });
    noteServerDate(httpDate(RECEIVED - 900), RECEIVED);
    expect(serverNow()).toBe(RECEIVED);
    noteServerDate(httpDate(RECEIVED + 1000), RECEIVED);
    expect(serverNow()).toBe(RECEIVED);
  });

  it('follows the server when the browser’s clock is off', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: RECEIVED });
    noteServerDate(httpDate(RECEIVED + 20_000), RECEIVED);
    expect(Math.abs(serverNow() - (RECEIVED + 20_000))).toBeLessThanOrEqual(500);
    noteServerDate(httpDate(RECEIVED - 60_000), RECEIVED);
    expect(Math.abs(serverNow() - (RECEIVED - 60_000))).toBeLessThanOrEqual(500);
  });

  it('ignores an answer without a readable Date', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: RECEIVED });
    noteServerDate(null);
    noteServerDate('yesterday-ish');
    expect(serverNow()).toBe(RECEIVED);
  });

  it('ticks every second for its listeners, with one timer that stops when the last leaves', () => {
    vi.useFakeTimers();
    const first = vi.fn();
    const second = vi.fn();
    const leaveFirst = subscribeToClock(first);
    const leaveSecond = subscribeToClock(second);
    vi.advanceTimersByTime(3000);
    expect(first).toHaveBeenCalledTimes(3);
    expect(second).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(1);
    leaveFirst();
    vi.advanceTimersByTime(1000);
    expect(first).toHaveBeenCalledTimes(3);
    expect(second).toHaveBeenCalledTimes(4);
    leaveSecond();
    expect(vi.getTimerCount()).toBe(0);
  });
});
