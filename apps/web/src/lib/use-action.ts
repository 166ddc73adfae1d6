import { useState } from 'react';

export type Action<Args extends unknown[], Output> = {
  run: (...args: Args) => Promise<Output>;
  /** True while a run is under way: forms disable their button meanwhile. */
  isPending: boolean;
};

/**
 * A call that changes something, with its pending state. Server state that is read (lists,
 * counts) lives in TanStack Query; the pages a signed-out user sees need only this, so they
 * load without it.
 */
export function useAction<Args extends unknown[], Output>(
  action: (...args: Args) => Promise<Output>,
): Action<Args, Output> {
  const [pending, setPending] = useState(0);
  const run = async (...args: Args) => {
    setPending((count) => count + 1);
    try {
      return await action(...args);
    } finally {
      setPending((count) => count - 1);
    }
  };
  return { run, isPending: pending > 0 };
}
