import type { MouseEvent } from 'react';

/**
 * For a modal `<dialog>`'s clicks, in their capture: the second click of a double click whose
 * first opened the dialog (a click of `detail` ≥ 2) does nothing. On the backdrop it would close
 * what has just opened, and on a phone press the button now under the finger before anyone has
 * read the dialog.
 */
export function ignoreRepeatedClick(event: MouseEvent<HTMLDialogElement>): void {
  if (event.detail < 2) return;
  event.preventDefault();
  event.stopPropagation();
}

/** Whether a modal `<dialog>`'s click landed on the dialog element itself: on the backdrop around its panel. */
export const isBackdropClick = (event: MouseEvent<HTMLDialogElement>) => event.target === event.currentTarget;
