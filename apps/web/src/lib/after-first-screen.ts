/**
 * What the first screen of a visit does not show at once (the header's signed-in menus, the
 * machine page's cards below its map) is fetched after that screen has shown its data, so that
 * on a slow connection its code and texts do not share the bandwidth with what paints first
 * (issue 24: JavaScript before the first paint). This module is fetched by what waits; the
 * entry holds only first-screen.ts.
 */

import { firstScreenShown } from './first-screen';
import { queryClient } from './query-client';
import { whenIdle } from './when-idle';

/** However long the first screen's reads take, what waits for them waits no longer than this. */
export const FIRST_SCREEN_MAX_WAIT_MS = 4000;
/** The idle moment after the data is waited for at most this long. */
const IDLE_MAX_WAIT_MS = 300;
/** A hidden tab paints no frame: the data's frame is waited for at most this long. */
const FRAME_MAX_WAIT_MS = 1000;

type Reads = {
  /** How many reads are in flight. */
  isFetching: () => number;
  /** Calls back whenever a read starts or settles; returns the unsubscription. */
  subscribe: (listener: () => void) => () => void;
};

const idle = () => new Promise<void>((resolve) => whenIdle(resolve, IDLE_MAX_WAIT_MS));

/**
 * Resolves once the screen rendered with the settled reads' data has been painted. TanStack Query
 * renders an answer in a task of its own (a timeout), queued before this one's; the frame after
 * that task is the one that shows it, so two frames are waited for.
 */
const dataPainted = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FRAME_MAX_WAIT_MS);
    setTimeout(() =>
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          clearTimeout(timer);
          resolve();
        }),
      ),
    );
  });

/** Resolves once no read is in flight, or after FIRST_SCREEN_MAX_WAIT_MS. */
function settled(reads: Reads): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, FIRST_SCREEN_MAX_WAIT_MS);
    const unsubscribe = reads.subscribe(() => {
      if (reads.isFetching() === 0) finish();
    });
    function finish() {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    }
    if (reads.isFetching() === 0) finish();
  });
}

/**
 * Waits until the first screen has rendered, the reads it asked for as it did have settled, their
 * data has been painted and the browser has had an idle moment; the same promise for everyone.
 * What waits (its code's preloading included, a long task on a phone) then stays out of the task
 * that draws the screen's data (on the machine page: its map).
 */
export function waitForFirstScreen(reads: Reads): Promise<void> {
  return (waiting ??= (async () => {
    await firstScreenShown;
    // The reads a screen asks for as it mounts start in its effects, just after it renders.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await settled(reads);
    await dataPainted();
    await idle();
  })());
}
let waiting: Promise<void> | undefined;

/** As waitForFirstScreen, with the reads of the app's server state. */
export async function afterFirstScreen(): Promise<void> {
  await waitForFirstScreen({
    isFetching: () => queryClient.isFetching(),
    subscribe: (listener) => queryClient.getQueryCache().subscribe(listener),
  });
}
