import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { DateField } from './date-field';

describe('DateField', () => {
  it('can be picked from the calendar', async () => {
    function Field() {
      const [value, setValue] = useState('');
      return <DateField label="Valid until" value={value} onChange={setValue} />;
    }
    await renderInApp(<Field />);
    await userEvent.click(screen.getByRole('button', { name: 'Pick the date' }));
    // The calendar opens once its code has come.
    const calendar = await screen.findByRole('dialog', { name: 'Pick the date' });
    const days = calendar.querySelectorAll<HTMLButtonElement>('button:not([disabled])');
    const fifteenth = [...days].find((day) => day.textContent === '15');
    await userEvent.click(fifteenth!);
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((screen.getByLabelText('Valid until') as HTMLInputElement).value).toMatch(/^15\.\d{2}\.\d{4}$/);
  });
});
