/** Where a floating panel goes, in viewport pixels. */
export type PanelPosition = { top: number; left: number };

type Box = { top: number; bottom: number; right: number };
type Size = { width: number; height: number };

/** The gap between a panel and the viewport's edge, and between it and its button. */
const EDGE = 8;

/**
 * Places a panel of `panel`'s size by the button it opens from: right-aligned with it, under
 * it or (`above`, or when only that fits) over it, and always inside the viewport, so a
 * calendar opened near an edge or on a phone never hangs out of the screen.
 */
export function placePanel(
  anchor: Box,
  panel: Size,
  viewport: Size,
  preferred: 'below' | 'above' = 'below',
): PanelPosition {
  const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(value, high));
  const left = clamp(anchor.right - panel.width, EDGE, viewport.width - panel.width - EDGE);
  const below = anchor.bottom + EDGE;
  const above = anchor.top - EDGE - panel.height;
  const fitsBelow = below + panel.height <= viewport.height - EDGE;
  const fitsAbove = above >= EDGE;
  const top =
    (preferred === 'below' && fitsBelow) || (!fitsAbove && fitsBelow)
      ? below
      : fitsAbove
        ? above
        : clamp(below, EDGE, viewport.height - panel.height - EDGE);
  return { top: Math.max(EDGE, top), left: Math.max(EDGE, left) };
}

/**
 * The `popover` attribute for an element to raise with raiseToTopLayer, where the browser has
 * popovers: one without them (or a test DOM) would hide the element for good.
 */
export const TOP_LAYER_POPOVER: 'manual' | undefined =
  typeof HTMLElement !== 'undefined' && typeof HTMLElement.prototype.showPopover === 'function' ? 'manual' : undefined;

/**
 * Puts an element with the `popover` attribute into the browser's top layer: above the map's
 * panes (Leaflet gives them z-indexes in the hundreds) and above a modal <dialog> opened
 * before it. Shown again, it moves to the top of that layer. A browser (or test DOM) without
 * popovers keeps it where it is, fixed with its z-index.
 */
export function raiseToTopLayer(element: HTMLElement): void {
  // One in a dialog just closed (and removed) cannot be shown: its owner puts it elsewhere.
  if (!element.popover || !element.isConnected) return;
  if (element.matches(':popover-open')) element.hidePopover();
  element.showPopover();
}

export function leaveTopLayer(element: HTMLElement): void {
  if (element.popover && element.matches(':popover-open')) element.hidePopover();
}
