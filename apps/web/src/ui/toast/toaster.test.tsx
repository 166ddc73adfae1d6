import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { showToast } from './toast-store';
import { Toaster } from './toaster';

describe('the toaster', () => {
  it('shows urgent toasts as alerts, the others as status, each with a close button', async () => {
    await renderInApp(<Toaster />);
    act(() => {
      showToast({ variant: 'error', title: 'Server error', message: 'Try again.' });
      showToast({ variant: 'success', title: 'Saved', layout: 'vertical', icon: false });
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Server errorTry again.');
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    await userEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a link to what the toast is about, which closes it when followed', async () => {
    await renderInApp(<Toaster />, { locale: 'en', path: '/en' });
    act(() => {
      showToast({ variant: 'warning', title: 'Alarm', action: { label: 'Open the machine', to: '/sprinklers/7' } });
    });
    const link = screen.getByRole('link', { name: 'Open the machine' });
    expect(link).toHaveAttribute('href', '/en/sprinklers/7');
    await userEvent.click(link);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
