import { type ComponentType, useCallback, useId, useRef, useState } from 'react';
import { loadCataloguePart } from '@/i18n/i18n';
import { CalendarIcon } from '../icons';
import { IconButton } from '../icon-button';
import type { CalendarPopoverProps } from './calendar-popover';
import type { PickerMode } from './calendar-panel';
import { DEFAULT_OUTPUT_FORMAT, RANGE_SEPARATOR } from './dates';

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
 * The open calendar's code (calendar-popover.tsx, with the calendar and its placing), most of the
 * picker's, and its texts (the catalogue's `calendar`) come when it is first wanted: as the pointer or the focus reaches the button, or when
 * it is pressed. A page that shows a picker (the machine page's irrigation history) does not wait
 * for it; the calendar opens once it has come.
 */
let calendarPopover: ComponentType<CalendarPopoverProps> | undefined;
let loadingCalendar: Promise<ComponentType<CalendarPopoverProps>> | undefined;
function loadCalendarPopover(): Promise<ComponentType<CalendarPopoverProps>> {
  return (loadingCalendar ??= Promise.all([import('./calendar-popover'), loadCataloguePart('calendar')]).then(
    ([module]) => (calendarPopover = module.CalendarPopover),
    (error: unknown) => {
      // Not kept: the next press fetches it again.
      loadingCalendar = undefined;
      throw error;
    },
  ));
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
  const [Calendar, setCalendar] = useState(() => calendarPopover);
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // Open once the calendar's code has come; a press while it cannot be fetched opens nothing.
  const shown = open && Calendar !== undefined;
  const wantCalendar = () => {
    if (Calendar) return;
    loadCalendarPopover().then(
      (loaded) => setCalendar(() => loaded),
      () => setOpen(false),
    );
  };
  const close = useCallback(() => {
    setOpen(false);
    trigger.current?.focus();
  }, []);
  const dismiss = useCallback(() => setOpen(false), []);

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
        <Calendar
          id={panelId}
          label={label}
          mode={mode}
          value={value}
          onChange={onChange}
          format={format}
          separator={separator}
          shortcuts={shortcuts}
          isDisabled={isDisabled}
          now={now}
          placement={placement}
          picker={container}
          trigger={trigger}
          onClose={close}
          onDismiss={dismiss}
        />
      )}
    </div>
  );
}
