import { IdTextSchema } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import type { PasswordFieldErrors } from '@/lib/password-errors';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { type NewPassword, NewPasswordFields, isAcceptableNewPassword } from '@/ui/form/new-password-fields';
import { AppLink, useAppNavigate } from '@/ui/link';
import { showToast } from '@/ui/toast/toast-store';
import { useSetPassword } from '../api/set-password';

/** The new password from an emailed link: activation of a new account, or a reset. */
export function SetPasswordForm() {
  const { t } = useTranslation();
  const navigate = useAppNavigate();
  const params = useParams();
  const setPassword = useSetPassword();
  const [value, setValue] = useState<NewPassword>({ newPassword: '', repeatNewPassword: '' });
  const [errors, setErrors] = useState<PasswordFieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const uid = IdTextSchema.safeParse(params.uid);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!uid.success || !params.token || !isAcceptableNewPassword(value)) return;
    const outcome = await setPassword.run({ uid: uid.data, token: params.token, ...value });
    if (outcome.ok) {
      showToast({ variant: 'success', title: t('setPassword.doneTitle'), message: t('setPassword.doneMessage') });
      navigate(paths.login.link());
    } else {
      setErrors(outcome.fieldErrors ?? {});
    }
  };

  if (!uid.success || !params.token) {
    return (
      <Card>
        <p role="alert">{t('setPassword.invalidLink')}</p>
      </Card>
    );
  }
  return (
    <Card>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <NewPasswordFields
          value={value}
          onChange={(next) => {
            setValue(next);
            setErrors({});
          }}
          errors={errors}
          submitted={submitted}
        />
        <Button type="submit" disabled={setPassword.isPending} className="mt-2 w-full">
          {t('setPassword.submit')}
        </Button>
        <p className="text-sm text-ink-muted">
          {t('setPassword.expiredHint')}{' '}
          <AppLink to={paths.forgot.link()} className="font-medium text-water underline underline-offset-4">
            {t('setPassword.requestNew')}
          </AppLink>
        </p>
      </form>
    </Card>
  );
}
