import { createStore, useStore } from '@/config/create-store';

export type ColorMode = 'light' | 'dark';
export type ColorModePreference = ColorMode | 'system';

/** The key is the one the previous dashboard used, so a returning user keeps the choice. */
export const COLOR_MODE_STORAGE_KEY = 'nuxt-color-mode';

type ColorModeState = {
  preference: ColorModePreference;
  systemMode: ColorMode;
  /** Set while a page forces a mode; it wins over the preference there. */
  forced: ColorMode | null;
};

export type ColorModeSnapshot = ColorModeState & { mode: ColorMode };

const darkQuery = matchMedia('(prefers-color-scheme: dark)');

function readPreference(): ColorModePreference {
  try {
    const stored = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

function resolve(state: ColorModeState): ColorModeSnapshot {
  const chosen = state.preference === 'system' ? state.systemMode : state.preference;
  return { ...state, mode: state.forced ?? chosen };
}

const store = createStore<ColorModeSnapshot>(
  resolve({ preference: readPreference(), systemMode: darkQuery.matches ? 'dark' : 'light', forced: null }),
  // What the build's prerendering saw: nothing stored, a light system.
  resolve({ preference: 'system', systemMode: 'light', forced: null }),
);

function apply({ mode }: ColorModeSnapshot): void {
  document.documentElement.classList.toggle('dark', mode === 'dark');
}

function update(change: Partial<ColorModeState>): void {
  const next = resolve({ ...store.get(), ...change });
  store.set(next);
  apply(next);
}

// The page's head (apps/web/color-mode.js) has set the class before the first paint already; this keeps the two in step.
apply(store.get());

// "system" follows the operating system live, e.g. when a phone switches to dark at dusk.
darkQuery.addEventListener('change', (event) => update({ systemMode: event.matches ? 'dark' : 'light' }));

export function setColorModePreference(preference: ColorModePreference): void {
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference);
  } catch {
    // Without storage the choice lasts until the page is closed.
  }
  update({ preference });
}

/** The header button: from whatever shows now to the other one. */
export function toggleColorMode(): void {
  setColorModePreference(store.get().mode === 'dark' ? 'light' : 'dark');
}

/**
 * Forces a mode while a page is shown; returns the function that lifts it. Forcing "system"
 * would mean forcing nothing, so it is a programming error.
 */
export function forceColorMode(mode: ColorMode): () => void {
  if (mode !== 'light' && mode !== 'dark') {
    throw new Error(`A page can force only "light" or "dark", not "${String(mode)}"`);
  }
  update({ forced: mode });
  return () => update({ forced: null });
}

export function useColorMode(): ColorModeSnapshot {
  return useStore(store);
}
