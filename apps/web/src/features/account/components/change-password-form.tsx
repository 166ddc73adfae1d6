import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordFieldErrors } from '@/lib/password-errors';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { type NewPassword, NewPasswordFields, isAcceptableNewPassword } from '@/ui/form/new-password-fields';
import { PasswordField } from '@/ui/form/password-field';
import { showToast } from '@/ui/toast/toast-store';
import { useChangePassword } from '../api/change-password';

const EMPTY: NewPassword = { newPassword: '', repeatNewPassword: '' };

/** The current password and a new one; what the server rejects shows under each field. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [oldPassword, setOldPassword] = useState('');
  const [value, setValue] = useState<NewPassword>(EMPTY);
  const [errors, setErrors] = useState<PasswordFieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // A new key after success empties the fields and forgets what was touched.
  const [formKey, setFormKey] = useState(0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!oldPassword || !isAcceptableNewPassword(value)) return;
    const outcome = await change.run({ oldPassword, ...value });
    if (!outcome.ok) {
      setErrors(outcome.fieldErrors ?? {});
      return;
    }
    showToast({ variant: 'success', title: t('account.password.changed') });
    setOldPassword('');
    setValue(EMPTY);
    setErrors({});
    setSubmitted(false);
    setFormKey(formKey + 1);
  };

  return (
    <Card aria-labelledby="account-password">
      <h2 id="account-password" className="mb-4 text-lg font-semibold">
        {t('account.password.title')}
      </h2>
      <form key={formKey} noValidate onSubmit={submit} className="flex max-w-md flex-col gap-4">
        <PasswordField
          label={t('password.current')}
          name="oldPassword"
          autoComplete="current-password"
          required
          value={oldPassword}
          onChange={(event) => {
            setOldPassword(event.target.value);
            setErrors({ ...errors, oldPassword: undefined });
          }}
          error={errors.oldPassword ?? (submitted && !oldPassword ? t('form.required') : undefined)}
        />
        <NewPasswordFields
          value={value}
          onChange={(next) => {
            setValue(next);
            setErrors({ ...errors, newPassword: undefined, repeatNewPassword: undefined });
          }}
          errors={errors}
          submitted={submitted}
        />
        <div>
          <Button type="submit" disabled={change.isPending}>
            {t('account.password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
