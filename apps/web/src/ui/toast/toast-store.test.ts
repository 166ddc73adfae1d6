import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_LIFETIME_MS, dismissToast, showToast, toastStore } from './toast-store';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const toast of toastStore.get()) dismissToast(toast.id);
    vi.useRealTimers();
  });

  it('are horizontal with an icon unless told otherwise', () => {
    showToast({ variant: 'information', title: 'Saved' });
    expect(toastStore.get()).toEqual([
      expect.objectContaining({
        variant: 'information',
        title: 'Saved',
        message: '',
        layout: 'horizontal',
        icon: true,
      }),
    ]);
  });

  it('do not add a toast identical to one shown', () => {
    const first = showToast({ variant: 'error', title: 'Server error', message: 'Try again.' });
    const second = showToast({ variant: 'error', title: 'Server error', message: 'Try again.' });
    expect(second).toBe(first);
    expect(toastStore.get()).toHaveLength(1);
  });

  it('add one that differs in variant, layout or icon', () => {
    const base = { variant: 'error' as const, title: 'Server error', message: 'Try again.' };
    showToast(base);
    showToast({ ...base, variant: 'warning' });
    showToast({ ...base, layout: 'vertical' });
    showToast({ ...base, icon: false });
    expect(toastStore.get()).toHaveLength(4);
  });

  it('go after 30 seconds, or when closed', () => {
    const closed = showToast({ variant: 'success', title: 'A' });
    showToast({ variant: 'success', title: 'B' });
    dismissToast(closed);
    expect(toastStore.get().map((toast) => toast.title)).toEqual(['B']);
    vi.advanceTimersByTime(TOAST_LIFETIME_MS - 1);
    expect(toastStore.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toastStore.get()).toHaveLength(0);
  });

  it('can be shown again once the first one is gone', () => {
    const first = showToast({ variant: 'warning', title: 'Again' });
    dismissToast(first);
    expect(showToast({ variant: 'warning', title: 'Again' })).not.toBe(first);
  });
});
