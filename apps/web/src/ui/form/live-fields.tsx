import type { ReactNode } from 'react';
import { useHydrated } from '@/config/create-store';

/**
 * A form's controls, which take input once the app runs the page. A login page's HTML is
 * rendered at build time and shown before its scripts have come (app/prerender.tsx): what was
 * typed into it then would not be in the form's state, so its fields are disabled until then.
 */
export function LiveFields({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className="contents">
      {children}
    </fieldset>
  );
}
