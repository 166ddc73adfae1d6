import { type ComponentType, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { CalendarIcon } from '../icons';
import { IconButton } from '../icon-button';
import {
  type PanelPosition,
  TOP_LAYER_POPOVER,
  leaveTopLayer,
  placePanel,
  raiseToTopLayer,
} from '../popover/top-layer';
import type { CalendarPanelProps, PickerMode } from './calendar-panel';
import {
  type DateRange,
  DEFAULT_OUTPUT_FORMAT,
  RANGE_SEPARATOR,
  formatDate,
  formatRange,
  parseDate,
  parseRange,
} from './dates';

export type DatePickerProps = {
  mode: PickerMode;
  /** The picked day or range as text in `format` (ranges joined by `separator`); '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** Names the button that opens the calendar. */
  label: string;
  format?: string;
  separator?: string;
  /** Range mode: the quick picks (today, last 7 days…); on unless turned off. */
  shortcuts?: boolean;
  isDisabled?: (date: Date, pendingStart: Date | null) => boolean;
  now?: Date;
  /** 'above' for a picker at the bottom of a dialog: the calendar opens over its button when it fits there. */
  placement?: 'below' | 'above';
};

/**
 * The calendar's code, two thirds of the picker's, comes when it is first wanted: as the pointer
 * or the focus reaches the button, or when it is pressed. A page that shows a picker (the machine
 * page's irrigation history) does not wait for it; the calendar opens once it has come.
 */
let calendarPanel: ComponentType<CalendarPanelProps> | undefined;
let loadingCalendar: Promise<ComponentType<CalendarPanelProps>> | undefined;
function loadCalendarPanel(): Promise<ComponentType<CalendarPanelProps>> {
  return (loadingCalendar ??= import('./calendar-panel').then(
    (module) => (calendarPanel = module.CalendarPanel),
    (error: unknown) => {
      // Not kept: the next press fetches it again.
      loadingCalendar = undefined;
      throw error;
    },
  ));
}

function readValue(value: string, mode: PickerMode, format: string, separator: string): DateRange | null {
  if (mode === 'range') return parseRange(value, format, separator);
  const date = parseDate(value, format);
  return date ? { start: date, end: date } : null;
}

/**
 * A calendar button that opens a day or range picker by it; Escape or a press outside closes it.
 * The calendar is a popover in the browser's top layer, placed inside the viewport: neither the
 * map beside it nor a dialog around it, nor the screen's edge on a phone, can cover or cut it.
 */
export function DatePicker({
  mode,
  value,
  onChange,
  label,
  format = DEFAULT_OUTPUT_FORMAT,
  separator = RANGE_SEPARATOR,
  shortcuts = true,
  isDisabled,
  now,
  placement = 'below',
}: DatePickerProps) {
  const [open, setOpen] = useState(false);
  const [Calendar, setCalendar] = useState(() => calendarPanel);
  // Open once the calendar's code has come; a press while it cannot be fetched opens nothing.
  const shown = open && Calendar !== undefined;
  const wantCalendar = () => {
    if (Calendar) return;
    loadCalendarPanel().then(
      (loaded) => setCalendar(() => loaded),
      () => setOpen(false),
    );
  };
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const [position, setPosition] = useState<PanelPosition>({ top: 0, left: 0 });

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  // Placed before the first paint, and again as the page scrolls or the window resizes.
  useLayoutEffect(() => {
    const element = panel.current;
    if (!shown || !element) return;
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
  }, [shown, placement]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const apply = (range: DateRange) => {
    onChange(mode === 'range' ? formatRange(range, format, separator) : formatDate(range.start, format));
    close();
  };

  return (
    <div ref={container} className="relative">
      <IconButton
        ref={trigger}
        label={label}
        aria-expanded={open}
        aria-controls={shown ? panelId : undefined}
        aria-haspopup="dialog"
        onPointerEnter={wantCalendar}
        onFocus={wantCalendar}
        onClick={() => {
          wantCalendar();
          setOpen(!open);
        }}
      >
        <CalendarIcon />
      </IconButton>
      {open && Calendar && (
        <div
          ref={panel}
          id={panelId}
          role="dialog"
          aria-label={label}
          popover={TOP_LAYER_POPOVER}
          onKeyDown={(event) => event.key === 'Escape' && close()}
          style={position}
          // The 250 ms of docs/product.md#limits: the panel fades in over that time instead of popping up.
          className="fixed inset-auto z-50 m-0 max-h-[calc(100dvh-1rem)] w-max max-w-[calc(100vw-1rem)] animate-[picker-in_250ms_ease-out] overflow-y-auto rounded-xl border border-line bg-surface p-3 text-ink shadow-xl"
        >
          <Calendar
            mode={mode}
            initial={readValue(value, mode, format, separator)}
            onApply={apply}
            onCancel={close}
            isDisabled={isDisabled}
            shortcuts={shortcuts}
            now={now}
          />
        </div>
      )}
    </div>
  );
}
