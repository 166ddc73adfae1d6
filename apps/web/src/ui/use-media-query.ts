import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, followed as it changes (a window resized, a device turned). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => matchMedia(query).matches,
  );
}
