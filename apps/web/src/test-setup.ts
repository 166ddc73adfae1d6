import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { dialogStore } from './ui/dialog/dialogs';
import { dismissToast, toastStore } from './ui/toast/toast-store';
import { fetchAnswerSchemas } from './lib/checked-later';
import { connection } from './lib/connection';
import { queryClient } from './lib/query-client';

// jsdom has no media queries; the colour-mode store asks for prefers-color-scheme when loaded.
if (!('matchMedia' in window)) {
  Object.defineProperty(window, 'matchMedia', {
    value: (query: string): MediaQueryList =>
      Object.assign(new EventTarget(), {
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
      }),
  });
}

// jsdom lays nothing out and has no ResizeObserver; Radix measures a menu's trigger with one to place it.
window.ResizeObserver ??= class ResizeObserver {
  observe = () => undefined;
  unobserve = () => undefined;
  disconnect = () => undefined;
};

// jsdom has no modal dialogs; the browser tests cover the real focus trap and Escape.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.removeAttribute('open');
};

afterEach(cleanup);

// The files of a worker share one document and the app's modules (vitest.config.ts): each starts
// from what a newly opened tab has, whatever the file before it left: real timers and globals, no
// toast or dialog, nothing cached or stored, the connection up.
beforeAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const toast of toastStore.get()) dismissToast(toast.id);
  dialogStore.set([]);
  queryClient.clear();
  connection.noteAnswer();
  localStorage.clear();
  sessionStorage.clear();
});

// The test command runs this suite beside three others on two cores (scripts/test.sh): a screen
// whose lazy parts and answers come in 1 s alone can take longer there, and testing-library's
// findBy… and waitFor give up after 1 s by default. What they wait for is the same; they wait longer.
configure({ asyncUtilTimeout: 5_000 });

// The tests read answers and live events as a page does once its first screen has shown its data:
// with their contract schemas there, checked on arrival. lib/checked-later.fresh-modules.test.ts covers the
// first screen's answers, handed over before their schemas have come.
await fetchAnswerSchemas();
