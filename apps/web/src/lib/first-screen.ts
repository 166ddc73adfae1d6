let markShown: (() => void) | undefined;

/**
 * Resolves when the first screen of the visit has rendered (after-first-screen.ts waits for it
 * and then for the screen's data). Kept apart so that the entry carries only this.
 */
export const firstScreenShown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** The routes call this when a screen's code has arrived and it renders for the first time. */
export function markScreenShown(): void {
  markShown?.();
}
