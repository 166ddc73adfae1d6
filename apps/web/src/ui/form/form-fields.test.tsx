import { USER_FIELD_LIMITS } from '@pivot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { CheckboxField } from './checkbox-field';
import { type NewPassword, NewPasswordFields } from './new-password-fields';
import { PasswordField } from './password-field';
import { TextField } from './text-field';
import {
  type UserDetails,
  UserFields,
  type UserFieldsProps,
  areAcceptableUserDetails,
  userDetailsOf,
} from './user-fields';

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

  it('is marked invalid, in its style too, when left with a rule broken, and valid again once they are met', async () => {
    await renderInApp(<NewPasswordForm />);
    const field = screen.getByLabelText('New password');
    await userEvent.type(field, 'abc1');
    expect(field).not.toHaveAttribute('aria-invalid');
    await userEvent.tab();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveClass('border-error');
    expect(field).toHaveAccessibleDescription(/The password does not meet all the rules/);
    await userEvent.type(field, 'Corn-field-2026!');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(field).not.toHaveClass('border-error');
  });

  it('says what is wrong once the form was sent', async () => {
    await renderInApp(<NewPasswordForm submitted />);
    expect(screen.getByText('The password does not meet all the rules')).toBeInTheDocument();
  });
});

function UserForm(props: Omit<UserFieldsProps, 'value' | 'onChange' | 'languageLabel'>) {
  const [value, setValue] = useState<UserDetails>(userDetailsOf(null));
  return <UserFields value={value} onChange={setValue} languageLabel="Language" {...props} />;
}

describe("a user's fields", () => {
  it('cap each field at the limit of the contracts', async () => {
    await renderInApp(<UserForm submitted={false} whose="other" />);
    expect(screen.getByLabelText('First name')).toHaveAttribute('maxlength', String(USER_FIELD_LIMITS.name));
    expect(screen.getByLabelText('Last name')).toHaveAttribute('maxlength', String(USER_FIELD_LIMITS.name));
    expect(screen.getByLabelText('Company')).toHaveAttribute('maxlength', String(USER_FIELD_LIMITS.company));
    expect(screen.getByLabelText('Email')).toHaveAttribute('maxlength', String(USER_FIELD_LIMITS.email));
    expect(screen.getByLabelText('Phone')).toHaveAttribute('maxlength', String(USER_FIELD_LIMITS.phone));
  });

  it("let the browser fill in the user's own details, never someone else's", async () => {
    const { unmount } = await renderInApp(<UserForm submitted={false} whose="own" />);
    expect(screen.getByLabelText('First name')).toHaveAttribute('autocomplete', 'given-name');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'email');
    unmount();
    await renderInApp(<UserForm submitted={false} whose="other" />);
    expect(screen.getByLabelText('First name')).toHaveAttribute('autocomplete', 'off');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'off');
  });

  it("say what breaks the contracts' rules once the form was sent, and the server's word on the email", async () => {
    await renderInApp(<UserForm submitted whose="other" emailError="Email already in use" />);
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter a valid email address');
    await userEvent.type(screen.getByLabelText('Phone'), 'one two');
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription('Enter a phone number such as +48 600 100 200');
    await userEvent.type(screen.getByLabelText('Email'), 'anna@farm.pl');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email already in use');
  });

  it('may be sent once every rule holds', () => {
    const details = { ...userDetailsOf(null), first_name: 'Anna', last_name: 'Nowak', email: 'anna@farm.pl' };
    expect(areAcceptableUserDetails(details)).toBe(true);
    expect(areAcceptableUserDetails({ ...details, phone: 'call me' })).toBe(false);
    expect(areAcceptableUserDetails({ ...details, last_name: ' ' })).toBe(false);
  });
});
