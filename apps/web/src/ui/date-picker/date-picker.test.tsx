import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { CalendarPanel } from './calendar-panel';
import { DatePicker } from './date-picker';
import { DateRangeField } from './date-field';

const NOW = new Date(2026, 6, 15, 10, 0);

function RangeField() {
  const [value, setValue] = useState('');
  return <DateRangeField label="Dates" value={value} onChange={setValue} now={NOW} />;
}

const dayButton = (name: RegExp) => screen.getByRole('button', { name });

/** Presses a picker's button; the calendar opens once its code has come. */
async function openPicker(name: string) {
  await userEvent.click(screen.getByRole('button', { name }));
  await screen.findByRole('dialog', { name });
}

describe('the calendar', () => {
  it('shows 42 days and a page of 12 years', async () => {
    await renderInApp(<CalendarPanel mode="single" initial={null} onApply={vi.fn()} onCancel={vi.fn()} now={NOW} />);
    const grid = screen.getByRole('grid', { name: 'July 2026' });
    expect(within(grid).getAllByRole('gridcell')).toHaveLength(42);
    await userEvent.click(screen.getByRole('button', { name: 'July 2026' }));
    expect(within(screen.getByRole('group', { name: 'Choose a year' })).getAllByRole('button')).toHaveLength(12);
  });

  it('moves between days with the arrow keys', async () => {
    await renderInApp(<CalendarPanel mode="single" initial={null} onApply={vi.fn()} onCancel={vi.fn()} now={NOW} />);
    dayButton(/July 15, 2026/).focus();
    await userEvent.keyboard('{ArrowDown}{ArrowRight}');
    expect(dayButton(/July 23, 2026/)).toHaveFocus();
    await userEvent.keyboard('{PageDown}');
    expect(dayButton(/August 23, 2026/)).toHaveFocus();
  });

  it('picks a range and applies it in the default format', async () => {
    const onChange = vi.fn();
    await renderInApp(<DatePicker mode="range" label="Pick" value="" onChange={onChange} now={NOW} />);
    await openPicker('Pick');
    await userEvent.click(dayButton(/July 20, 2026/));
    await userEvent.click(dayButton(/July 3, 2026/));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith('2026-07-03 00:00:00 - 2026-07-20 00:00:00');
  });

  it('offers the range shortcuts', async () => {
    const onChange = vi.fn();
    await renderInApp(<DatePicker mode="range" label="Pick" value="" onChange={onChange} now={NOW} />);
    await openPicker('Pick');
    const shortcuts = screen.getByRole('list', { name: 'Quick picks' });
    expect(
      within(shortcuts)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Today', 'Yesterday', 'Last 7 days', 'Last 30 days', 'This month', 'Last month']);
    await userEvent.click(within(shortcuts).getByRole('button', { name: 'Last 7 days' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith('2026-07-09 00:00:00 - 2026-07-15 00:00:00');
  });

  it('Cancel closes without a change', async () => {
    const onChange = vi.fn();
    await renderInApp(<DatePicker mode="single" label="Pick" value="" onChange={onChange} now={NOW} />);
    await openPicker('Pick');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('the date-range field', () => {
  it('has no shortcuts, starts tomorrow and leaves out the week around the start', async () => {
    await renderInApp(<RangeField />);
    await openPicker('Choose dates');
    expect(screen.queryByRole('list', { name: 'Quick picks' })).not.toBeInTheDocument();
    expect(dayButton(/July 15, 2026/)).toHaveAttribute('aria-disabled', 'true');
    expect(dayButton(/July 16, 2026/)).not.toHaveAttribute('aria-disabled');
    await userEvent.click(dayButton(/July 20, 2026/));
    expect(dayButton(/July 27, 2026/)).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(dayButton(/July 28, 2026/));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByLabelText('Dates')).toHaveValue('20.07.2026 - 28.07.2026');
  });
});
