import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { CheckboxField } from './checkbox-field';
import { type NewPassword, NewPasswordFields } from './new-password-fields';
import { PasswordField } from './password-field';
import { TextField } from './text-field';

describe('form fields', () => {
  it('show their errors, one per line, tied to the input', async () => {
    await renderInApp(<TextField label="Email" error={['Too short', 'Not an email']} />);
    const input = screen.getByLabelText('Email');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Too short\nNot an email');
  });

  it('emit onEnter from text and checkbox inputs', async () => {
    const onEnter = vi.fn();
    await renderInApp(
      <>
        <TextField label="Name" onEnter={onEnter} />
        <CheckboxField label="Remember me" onEnter={onEnter} />
      </>,
    );
    await userEvent.type(screen.getByLabelText('Name'), 'x{Enter}');
    screen.getByLabelText('Remember me').focus();
    await userEvent.keyboard('{Enter}');
    expect(onEnter).toHaveBeenCalledTimes(2);
  });

  it('show and hide a password', async () => {
    await renderInApp(<PasswordField label="Password" defaultValue="secret" />);
    const input = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(input).toHaveAttribute('type', 'password');
    await userEvent.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });
});

function NewPasswordForm({ submitted = false }: { submitted?: boolean }) {
  const [value, setValue] = useState<NewPassword>({ newPassword: '', repeatNewPassword: '' });
  return <NewPasswordFields value={value} onChange={setValue} errors={{}} submitted={submitted} />;
}

describe('a new password', () => {
  it('ticks the rules off while typed', async () => {
    await renderInApp(<NewPasswordForm />);
    const rule = () => screen.getByText('a digit').parentElement;
    expect(rule()).not.toHaveClass('text-success');
    await userEvent.type(screen.getByLabelText('New password'), 'abc1');
    expect(rule()).toHaveClass('text-success');
  });

  it('must be repeated the same', async () => {
    await renderInApp(<NewPasswordForm />);
    await userEvent.type(screen.getByLabelText('New password'), 'Corn-field-2026!');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'Corn-field-2026');
    await userEvent.tab();
    expect(screen.getByText('Passwords must be the same')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Repeat the new password'), '!');
    expect(screen.queryByText('Passwords must be the same')).not.toBeInTheDocument();
  });

  it('says what is wrong once the form was sent', async () => {
    await renderInApp(<NewPasswordForm submitted />);
    expect(screen.getByText('The password does not meet all the rules')).toBeInTheDocument();
  });
});
