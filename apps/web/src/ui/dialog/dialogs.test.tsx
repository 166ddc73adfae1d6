import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { DialogHost } from './dialog-host';
import { alertDialog, confirmDialog, promptDialog } from './dialogs';

/** Renders the host and opens a dialog; the answer is wrapped so that awaiting this does not await it. */
async function openWith<T>(open: () => Promise<T>): Promise<{ answer: Promise<T> }> {
  await renderInApp(<DialogHost />);
  let answer!: Promise<T>;
  act(() => {
    answer = open();
  });
  return { answer };
}

describe('dialogs', () => {
  it('confirm: the left button gives false', async () => {
    const { answer } = await openWith(() => confirmDialog({ title: 'Log out?', left: 'Stay', right: 'Leave' }));
    expect(screen.getByRole('dialog', { name: 'Log out?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('confirm: the right button gives true', async () => {
    const { answer } = await openWith(() => confirmDialog({ title: 'Log out?', message: 'Sure?' }));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription('Sure?');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
  });

  it('a press on the backdrop cancels', async () => {
    const { answer } = await openWith(() => confirmDialog({ title: 'Delete?' }));
    fireEvent.click(screen.getByRole('dialog'));
    await expect(answer).resolves.toBe(false);
  });

  it('the second click of a double click neither cancels nor answers (its first opened the dialog)', async () => {
    const { answer } = await openWith(() => confirmDialog({ title: 'Stop the machine?', right: 'Stop' }));
    fireEvent.click(screen.getByRole('dialog'), { detail: 2 });
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }), { detail: 2 });
    expect(screen.getByRole('dialog', { name: 'Stop the machine?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await expect(answer).resolves.toBe(true);
  });

  it('Escape cancels', async () => {
    const { answer } = await openWith(() => alertDialog({ title: 'Note' }));
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    await expect(answer).resolves.toBe(false);
  });

  it('prompt: starts with its initial value and gives the typed text', async () => {
    const { answer } = await openWith(() =>
      promptDialog({ title: 'Rename', input: { label: 'Name', initialValue: 'North' }, right: 'Save' }),
    );
    const input = screen.getByLabelText('Name');
    expect(input).toHaveValue('North');
    await userEvent.type(input, ' field{Enter}');
    await expect(answer).resolves.toBe('North field');
  });

  it('prompt: cancelling gives false, not the text', async () => {
    const { answer } = await openWith(() =>
      promptDialog({ title: 'Rename', input: { label: 'Name', initialValue: 'x' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
  });

  it('alert: one button, which gives true', async () => {
    const { answer } = await openWith(() => alertDialog({ title: 'Saved' }));
    expect(screen.getAllByRole('button')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(answer).resolves.toBe(true);
  });

  it('shows dialogs one after the other', async () => {
    const { answer: first } = await openWith(() => confirmDialog({ title: 'First' }));
    let second!: Promise<boolean>;
    act(() => {
      second = confirmDialog({ title: 'Second' });
    });
    expect(screen.getByRole('dialog', { name: 'First' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(first).resolves.toBe(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(second).resolves.toBe(false);
  });

  it('asks a question already waiting only once: the second asking is cancelled at once', async () => {
    const question = { title: 'Stop the machine?', message: 'North field stops where it is.', right: 'Stop' };
    const { answer: first } = await openWith(() => confirmDialog(question));
    let again!: Promise<boolean>;
    let other!: Promise<boolean>;
    act(() => {
      again = confirmDialog(question);
      other = confirmDialog({ ...question, message: 'South field stops where it is.' });
    });
    await expect(again).resolves.toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await expect(first).resolves.toBe(true);
    // Another question waits its turn, and the same one may be asked again once answered.
    expect(await screen.findByRole('dialog', { name: 'Stop the machine?' })).toHaveAccessibleDescription(
      'South field stops where it is.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(other).resolves.toBe(false);
    let later!: Promise<boolean>;
    act(() => {
      later = confirmDialog(question);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await expect(later).resolves.toBe(true);
  });
});
