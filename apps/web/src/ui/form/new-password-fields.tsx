import { brokenPasswordRules } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError } from './field-frame';
import { PasswordField } from './password-field';
import { PasswordRules } from './password-rules';

export type NewPassword = { newPassword: string; repeatNewPassword: string };

/** True when the pair may be sent: the rules are met and both fields agree. */
export function isAcceptableNewPassword({ newPassword, repeatNewPassword }: NewPassword): boolean {
  return brokenPasswordRules(newPassword).length === 0 && newPassword === repeatNewPassword;
}

export type NewPasswordFieldsProps = {
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  /** Problems the server found with each field. */
  errors: { newPassword?: FieldError; repeatNewPassword?: FieldError };
  /** Set once the user tried to submit: every problem shows from then on. */
  submitted: boolean;
};

/** The new password and its repetition, with the live rules hint (activation, reset, change). */
export function NewPasswordFields({ value, onChange, errors, submitted }: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  const [newTouched, setNewTouched] = useState(false);
  const [repeatTouched, setRepeatTouched] = useState(false);
  // Marked invalid once left with a rule broken (not while the first letters are typed), or once sent.
  const rulesBroken = brokenPasswordRules(value.newPassword).length > 0 && (newTouched || submitted);
  const mismatch = value.repeatNewPassword !== value.newPassword && (repeatTouched || submitted);
  return (
    <>
      <PasswordField
        label={t('password.new')}
        name="newPassword"
        autoComplete="new-password"
        required
        value={value.newPassword}
        onChange={(event) => onChange({ ...value, newPassword: event.target.value })}
        onBlur={() => setNewTouched(value.newPassword !== '')}
        hint={<PasswordRules password={value.newPassword} />}
        error={errors.newPassword ?? (rulesBroken ? t('password.rulesNotMet') : undefined)}
      />
      <PasswordField
        label={t('password.repeat')}
        name="repeatNewPassword"
        autoComplete="new-password"
        required
        value={value.repeatNewPassword}
        onChange={(event) => onChange({ ...value, repeatNewPassword: event.target.value })}
        onBlur={() => setRepeatTouched(value.repeatNewPassword !== '')}
        error={errors.repeatNewPassword ?? (mismatch ? t('password.mismatch') : undefined)}
      />
    </>
  );
}
