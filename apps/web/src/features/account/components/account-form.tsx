import type { User } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { useSwitchLocale } from '@/i18n/use-switch-locale';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { PasswordField } from '@/ui/form/password-field';
import { UserFields, areAcceptableUserDetails, userDetailsOf } from '@/ui/form/user-fields';
import { showToast } from '@/ui/toast/toast-store';
import { type CurrentPasswordProblem, useSaveAccount } from '../api/update-account';

const PROBLEM_TEXT = {
  current_password_required: 'form.required',
  current_password_incorrect: 'account.details.wrongPassword',
} as const satisfies Record<CurrentPasswordProblem, string>;

/**
 * The user's own data; a changed language also switches the interface to it. A new email asks
 * for the current password too, so that a session left open cannot take the account over.
 */
export function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const save = useSaveAccount();
  const [values, setValues] = useState(() => userDetailsOf(user));
  const [savedEmail, setSavedEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [passwordProblem, setPasswordProblem] = useState<CurrentPasswordProblem | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const emailChanges = values.email.trim().toLowerCase() !== savedEmail;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!areAcceptableUserDetails(values) || (emailChanges && !currentPassword)) return;
    const result = await save.run({ ...values, ...(emailChanges ? { current_password: currentPassword } : {}) });
    if (!result.ok) {
      setPasswordProblem(result.currentPasswordProblem);
      return;
    }
    const saved = result.user;
    setValues(userDetailsOf(saved));
    setSavedEmail(saved.email);
    setCurrentPassword('');
    setPasswordProblem(null);
    setSubmitted(false);
    showToast({ variant: 'success', title: t('account.details.saved') });
    if (saved.language !== locale) await switchLocale(saved.language);
  };

  const passwordError = passwordProblem
    ? t(PROBLEM_TEXT[passwordProblem])
    : submitted && !currentPassword
      ? t('form.required')
      : undefined;

  return (
    <Card aria-labelledby="account-details">
      <h2 id="account-details" className="mb-4 text-lg font-semibold">
        {t('account.details.title')}
      </h2>
      <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <UserFields
          value={values}
          onChange={setValues}
          submitted={submitted}
          whose="own"
          languageLabel={t('account.details.language')}
        />
        {emailChanges && (
          <div className="sm:col-span-2 sm:max-w-md">
            <PasswordField
              label={t('password.current')}
              hint={t('account.details.passwordForEmail')}
              name="current_password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(event) => {
                setCurrentPassword(event.target.value);
                setPasswordProblem(null);
              }}
              error={passwordError}
            />
          </div>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {t('account.details.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
