import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { Button } from '../button';
import { ChevronLeftIcon, ChevronRightIcon } from '../other-icons';
import { IconButton } from '../icon-button';
import { YEARS_PER_PAGE, addMonths, calendarCells, isSameDay, yearPage } from './calendar-days';
import { type DateRange, SHORTCUTS, type Shortcut, addDays, shortcutRange, startOfDay } from './dates';

export type PickerMode = 'single' | 'range';

export type CalendarPanelProps = {
  mode: PickerMode;
  /** The range (or, in single mode, the day as start and end) the panel opens with. */
  initial: DateRange | null;
  onApply: (range: DateRange) => void;
  onCancel: () => void;
  /** Whether a day can be picked; `pendingStart` is the start of a range still missing its end. */
  isDisabled?: (date: Date, pendingStart: Date | null) => boolean;
  /** Range mode only: quick picks such as "last 7 days". */
  shortcuts?: boolean;
  /** The day the panel counts "today" from; the clock by default. */
  now?: Date;
};

type Selection = { start: Date | null; end: Date | null };

const KEY_STEPS: Record<string, (date: Date) => Date> = {
  ArrowLeft: (date) => addDays(date, -1),
  ArrowRight: (date) => addDays(date, 1),
  ArrowUp: (date) => addDays(date, -7),
  ArrowDown: (date) => addDays(date, 7),
  PageUp: (date) => addMonths(date, -1),
  PageDown: (date) => addMonths(date, 1),
  Home: (date) => addDays(date, -((date.getDay() + 6) % 7)),
  End: (date) => addDays(date, 6 - ((date.getDay() + 6) % 7)),
};

/** A month of days (or a page of years) to pick a day or a range from, with Apply and Cancel. */
export function CalendarPanel({
  mode,
  initial,
  onApply,
  onCancel,
  isDisabled = () => false,
  shortcuts = false,
  now = new Date(),
}: CalendarPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const today = startOfDay(now);
  const [selection, setSelection] = useState<Selection>({ start: initial?.start ?? null, end: initial?.end ?? null });
  const [focused, setFocused] = useState<Date>(initial?.start ?? today);
  const [view, setView] = useState<'days' | 'years'>('days');
  const [yearsFrom, setYearsFrom] = useState(focused.getFullYear());
  const grid = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);

  const pendingStart = mode === 'range' && selection.start && !selection.end ? selection.start : null;
  const cells = calendarCells(focused.getFullYear(), focused.getMonth());
  const monthCaption = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(focused);
  const weekdayFormat = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  const dayLabel = new Intl.DateTimeFormat(locale, { dateStyle: 'full' });

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  });

  const pick = (date: Date) => {
    if (isDisabled(date, pendingStart)) return;
    setFocused(date);
    if (mode === 'single' || !selection.start || selection.end) {
      setSelection({ start: date, end: mode === 'single' ? date : null });
      return;
    }
    const [start, end] = date < selection.start ? [date, selection.start] : [selection.start, date];
    setSelection({ start, end });
  };

  const onGridKey = (event: KeyboardEvent) => {
    const step = KEY_STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    moveFocus.current = true;
    setFocused(step(focused));
  };

  const applyShortcut = (shortcut: Shortcut) => {
    const range = shortcutRange(shortcut, now);
    setSelection(range);
    setFocused(range.start);
  };

  const inSelection = (date: Date) =>
    selection.start && selection.end && date >= selection.start && date <= selection.end;
  const complete = selection.start && selection.end ? { start: selection.start, end: selection.end } : null;

  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      {shortcuts && mode === 'range' && (
        <ul aria-label={t('calendar.shortcuts')} className="flex flex-wrap gap-1.5 sm:w-36 sm:flex-col">
          {SHORTCUTS.map((shortcut) => (
            <li key={shortcut}>
              <button
                type="button"
                onClick={() => applyShortcut(shortcut)}
                className="rounded-md px-2 py-1.5 text-left text-sm text-water hover:bg-surface-muted"
              >
                {t(`calendar.shortcut.${shortcut}`)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex w-full flex-col gap-2 sm:w-72">
        <div className="flex items-center justify-between gap-2">
          <IconButton
            label={view === 'days' ? t('calendar.previousMonth') : t('calendar.previousYears')}
            onClick={() =>
              view === 'days' ? setFocused(addMonths(focused, -1)) : setYearsFrom(yearsFrom - YEARS_PER_PAGE)
            }
          >
            <ChevronLeftIcon />
          </IconButton>
          <button
            type="button"
            aria-live="polite"
            onClick={() => {
              setYearsFrom(focused.getFullYear());
              setView(view === 'days' ? 'years' : 'days');
            }}
            className="rounded-md px-2 py-1 font-semibold capitalize hover:bg-surface-muted"
          >
            {view === 'days' ? monthCaption : `${yearPage(yearsFrom)[0]}–${yearPage(yearsFrom).at(-1)}`}
          </button>
          <IconButton
            label={view === 'days' ? t('calendar.nextMonth') : t('calendar.nextYears')}
            onClick={() =>
              view === 'days' ? setFocused(addMonths(focused, 1)) : setYearsFrom(yearsFrom + YEARS_PER_PAGE)
            }
          >
            <ChevronRightIcon />
          </IconButton>
        </div>

        {view === 'years' ? (
          <div role="group" aria-label={t('calendar.chooseYear')} className="grid grid-cols-3 gap-1.5">
            {yearPage(yearsFrom).map((year) => (
              <button
                key={year}
                type="button"
                aria-pressed={year === focused.getFullYear()}
                onClick={() => {
                  setFocused(new Date(year, focused.getMonth(), 1));
                  setView('days');
                }}
                className="h-10 rounded-md text-sm hover:bg-surface-muted aria-pressed:bg-primary aria-pressed:text-on-primary"
              >
                {year}
              </button>
            ))}
          </div>
        ) : (
          <table ref={grid} role="grid" aria-label={monthCaption} onKeyDown={onGridKey} className="w-full table-fixed">
            <thead>
              <tr>
                {cells.slice(0, 7).map((day) => (
                  <th key={day.getDay()} scope="col" className="pb-1 text-xs font-medium text-ink-muted">
                    {weekdayFormat.format(day)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[0, 1, 2, 3, 4, 5].map((week) => (
                <tr key={week}>
                  {cells.slice(week * 7, week * 7 + 7).map((day) => {
                    const disabled = isDisabled(day, pendingStart);
                    const selected = Boolean(
                      (selection.start && isSameDay(day, selection.start)) ||
                      (selection.end && isSameDay(day, selection.end)),
                    );
                    const outside = day.getMonth() !== focused.getMonth();
                    return (
                      <td key={day.getTime()} role="gridcell" className="p-0.5 text-center">
                        <button
                          type="button"
                          data-date={day.getTime()}
                          tabIndex={isSameDay(day, focused) ? 0 : -1}
                          aria-label={dayLabel.format(day)}
                          aria-pressed={selected}
                          aria-current={isSameDay(day, today) ? 'date' : undefined}
                          aria-disabled={disabled || undefined}
                          onClick={() => pick(day)}
                          className={`h-9 w-full rounded-md text-sm ${outside ? 'text-ink-muted' : ''} ${
                            inSelection(day) && !selected ? 'bg-water-soft' : ''
                          } ${selected ? 'bg-primary font-semibold text-on-primary' : 'hover:bg-surface-muted'} ${
                            disabled ? 'cursor-not-allowed line-through opacity-40 hover:bg-transparent' : ''
                          } ${isSameDay(day, today) && !selected ? 'ring-1 ring-water' : ''}`}
                        >
                          {day.getDate()}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}

        <div className="flex justify-end gap-2 border-t border-line pt-3">
          <Button variant="secondary" onClick={onCancel}>
            {t('calendar.cancel')}
          </Button>
          <Button disabled={!complete} onClick={() => complete && onApply(complete)}>
            {t('calendar.apply')}
          </Button>
        </div>
      </div>
    </div>
  );
}
