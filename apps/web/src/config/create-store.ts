import { useSyncExternalStore } from 'react';

export type Store<State> = {
  get: () => State;
  set: (next: State) => void;
  subscribe: (listener: () => void) => () => void;
};

/**
 * A tiny observable value for state that lives outside React (session, colour mode, toasts,
 * dialogs). It sits in config, the layer all others build on, because ui and lib both need it
 * and neither may import the other.
 */
export function createStore<State>(initial: State): Store<State> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
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

export function useStore<State>(store: Store<State>): State {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
