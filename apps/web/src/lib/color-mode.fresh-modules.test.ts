import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (event: { matches: boolean }) => void;
const listeners: Listener[] = [];
let systemDark = false;

/** A fresh colour-mode store over a fake operating-system setting. */
async function loadColorMode() {
  vi.resetModules();
  vi.stubGlobal('matchMedia', () => ({
    matches: systemDark,
    addEventListener: (_: string, listener: Listener) => listeners.push(listener),
  }));
  return import('./color-mode');
}

const isDark = () => document.documentElement.classList.contains('dark');

describe('colour mode', () => {
  beforeEach(() => {
    localStorage.clear();
    listeners.length = 0;
    systemDark = false;
    document.documentElement.classList.remove('dark');
  });

  it('follows the system by default, and live', async () => {
    const colorMode = await loadColorMode();
    expect(renderHook(() => colorMode.useColorMode()).result.current).toMatchObject({ preference: 'system' });
    expect(isDark()).toBe(false);
    for (const listener of listeners) listener({ matches: true });
    expect(isDark()).toBe(true);
  });

  it("keeps the choice under 'nuxt-color-mode' and toggles between light and dark", async () => {
    systemDark = true;
    const colorMode = await loadColorMode();
    colorMode.toggleColorMode();
    expect(localStorage.getItem('nuxt-color-mode')).toBe('light');
    expect(isDark()).toBe(false);
    colorMode.toggleColorMode();
    expect(localStorage.getItem('nuxt-color-mode')).toBe('dark');
    expect(isDark()).toBe(true);
  });

  it('reads the stored choice at start', async () => {
    localStorage.setItem('nuxt-color-mode', 'dark');
    const colorMode = await loadColorMode();
    expect(renderHook(() => colorMode.useColorMode()).result.current).toMatchObject({
      preference: 'dark',
      mode: 'dark',
    });
    expect(isDark()).toBe(true);
  });

  it('lets a page force a mode over the preference, and lift it again', async () => {
    const colorMode = await loadColorMode();
    colorMode.setColorModePreference('light');
    const lift = colorMode.forceColorMode('dark');
    expect(isDark()).toBe(true);
    lift();
    expect(isDark()).toBe(false);
  });

  it('rejects forcing "system"', async () => {
    const colorMode = await loadColorMode();
    const force = colorMode.forceColorMode as (mode: string) => () => void;
    expect(() => force('system')).toThrow(/only "light" or "dark"/);
  });
});
