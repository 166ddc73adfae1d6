import { useSyncExternalStore } from 'react';

export type Store<State> = {
  get: () => State;
  /** The value a page rendered at build time showed (a first visit, nothing stored): see useStore. */
  prerendered: () => State;
  set: (next: State) => void;
  subscribe: (listener: () => void) => () => void;
};

/**
 * A tiny observable value for state that lives outside React (session, colour mode, toasts,
 * dialogs). It sits in config, the layer all others build on, because ui and lib both need it
 * and neither may import the other.
 */
export function createStore<State>(initial: State, prerendered: State = initial): Store<State> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    prerendered: () => prerendered,
    set: (next) => {
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The store's value, followed. A page whose HTML was rendered at build time is hydrated
 * (main.tsx): its first render must show what the build showed, so it reads the value of a first
 * visit, and React renders again at once with the stored one (a dark mode chosen, say).
 */
export function useStore<State>(store: Store<State>): State {
  return useSyncExternalStore(store.subscribe, store.get, store.prerendered);
}

const neverChanges = () => () => undefined;

/**
 * False while a page rendered at build time is being hydrated (and at build time), true once the
 * app runs it: a control that takes input before then would lose it (a controlled field's state
 * is not what was typed).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
