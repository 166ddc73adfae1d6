import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { FormDialog } from './form-dialog';

describe('a form in a dialog', () => {
  it('closes on a click on its backdrop, but not on the second click of the double click that opened it', async () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn();
    await renderInApp(
      <FormDialog title="New program" submitLabel="Save" onSubmit={onSubmit} onClose={onClose}>
        <p>Its fields</p>
      </FormDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'New program' });

    fireEvent.click(dialog, { detail: 2 });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }), { detail: 2 });
    expect(onClose).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('Its fields'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(dialog);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
