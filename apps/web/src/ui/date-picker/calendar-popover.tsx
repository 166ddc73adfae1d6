import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  type PanelPosition,
  TOP_LAYER_POPOVER,
  leaveTopLayer,
  placePanel,
  raiseToTopLayer,
} from '../popover/top-layer';
import { CalendarPanel, type PickerMode } from './calendar-panel';
import { type DateRange, formatDate, formatRange, parseDate, parseRange } from './dates';

export type CalendarPopoverProps = {
  id: string;
  label: string;
  mode: PickerMode;
  value: string;
  onChange: (value: string) => void;
  format: string;
  separator: string;
  shortcuts: boolean;
  isDisabled?: (date: Date, pendingStart: Date | null) => boolean;
  now?: Date;
  placement: 'below' | 'above';
  /** The picker around its button and this panel: a press outside it closes the panel. */
  picker: RefObject<HTMLDivElement | null>;
  /** The button the panel is placed by. */
  trigger: RefObject<HTMLButtonElement | null>;
  /** Closes the panel, the focus back on the button (Escape, Cancel, Apply). */
  onClose: () => void;
  /** Closes the panel after a press outside the picker, the focus where the press put it. */
  onDismiss: () => void;
};

function readValue(value: string, mode: PickerMode, format: string, separator: string): DateRange | null {
  if (mode === 'range') return parseRange(value, format, separator);
  const date = parseDate(value, format);
  return date ? { start: date, end: date } : null;
}

/**
 * The date picker's open calendar (date-picker.tsx), with its code: a popover in the browser's
 * top layer, placed inside the viewport, so that neither the map beside it nor a dialog around it,
 * nor the screen's edge on a phone, can cover or cut it.
 */
export function CalendarPopover({
  id,
  label,
  mode,
  value,
  onChange,
  format,
  separator,
  shortcuts,
  isDisabled,
  now,
  placement,
  picker,
  trigger,
  onClose,
  onDismiss,
}: CalendarPopoverProps) {
  const panel = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<PanelPosition>({ top: 0, left: 0 });

  useEffect(() => {
    const closeOutside = (event: PointerEvent) => {
      if (!picker.current?.contains(event.target as Node)) onDismiss();
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [picker, onDismiss]);

  // Placed before the first paint, and again as the page scrolls or the window resizes.
  useLayoutEffect(() => {
    const element = panel.current;
    if (!element) return;
    raiseToTopLayer(element);
    const place = () => {
      const anchor = trigger.current?.getBoundingClientRect();
      if (!anchor) return;
      const viewport = { width: document.documentElement.clientWidth, height: window.innerHeight };
      setPosition(
        placePanel(anchor, { width: element.offsetWidth, height: element.offsetHeight }, viewport, placement),
      );
    };
    place();
    // The years' page is smaller than a month's: the panel is placed again when its size changes.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    resized?.observe(element);
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      resized?.disconnect();
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
      leaveTopLayer(element);
    };
  }, [trigger, placement]);

  const apply = (range: DateRange) => {
    onChange(mode === 'range' ? formatRange(range, format, separator) : formatDate(range.start, format));
    onClose();
  };

  return (
    <div
      ref={panel}
      id={id}
      role="dialog"
      aria-label={label}
      popover={TOP_LAYER_POPOVER}
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
      style={position}
      // The 250 ms of docs/product.md#limits: the panel fades in over that time instead of popping up.
      className="fixed inset-auto z-50 m-0 max-h-[calc(100dvh-1rem)] w-max max-w-[calc(100vw-1rem)] animate-[picker-in_250ms_ease-out] overflow-y-auto rounded-xl border border-line bg-surface p-3 text-ink shadow-xl"
    >
      <CalendarPanel
        mode={mode}
        initial={readValue(value, mode, format, separator)}
        onApply={apply}
        onCancel={onClose}
        isDisabled={isDisabled}
        shortcuts={shortcuts}
        now={now}
      />
    </div>
  );
}
