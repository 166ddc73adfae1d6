import { useEffect, useId, useRef, useState } from 'react';
import { CalendarIcon } from '../icons';
import { IconButton } from '../icon-button';
import { CalendarPanel, type PickerMode } from './calendar-panel';
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
  /** 'above' for a picker at the bottom of a dialog, which would clip a calendar hanging below it. */
  placement?: 'below' | 'above';
};

const PLACEMENT_CLASSES = { below: 'top-full mt-2', above: 'bottom-full mb-2' } as const;

function readValue(value: string, mode: PickerMode, format: string, separator: string): DateRange | null {
  if (mode === 'range') return parseRange(value, format, separator);
  const date = parseDate(value, format);
  return date ? { start: date, end: date } : null;
}

/** A calendar button that opens a day or range picker under it; Escape or a press outside closes it. */
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
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

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
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
      >
        <CalendarIcon />
      </IconButton>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label={label}
          onKeyDown={(event) => event.key === 'Escape' && close()}
          // Spec §9's 250 ms: the panel fades in over that time instead of popping up.
          className={`absolute right-0 z-40 ${PLACEMENT_CLASSES[placement]} w-max max-w-[calc(100vw-1rem)] animate-[picker-in_250ms_ease-out] rounded-xl border border-line bg-surface p-3 text-ink shadow-xl`}
        >
          <CalendarPanel
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
