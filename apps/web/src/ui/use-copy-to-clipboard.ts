import { type RefObject, useEffect, useState } from 'react';

/** How long "Copied" is shown. */
const COPIED_SHOWN_MS = 4000;

export type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copies a text to the clipboard and says how it went, "copied" for a few seconds; where the
 * clipboard is refused (a page not served over HTTPS), `source` is selected for the user to copy.
 */
export function useCopyToClipboard(source: RefObject<HTMLElement | null>): {
  state: CopyState;
  copy: (text: string) => Promise<void>;
} {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      if (source.current) window.getSelection()?.selectAllChildren(source.current);
      setState('failed');
    }
  };
  return { state, copy };
}
