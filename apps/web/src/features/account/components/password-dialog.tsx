import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/ui/form-dialog';
import { PasswordField } from '@/ui/form/password-field';

export type PasswordDialogProps = {
  title: string;
  description: string;
  submitLabel: string;
  /** Sends the call with the password: 'wrong' keeps the dialog open with the field's error. */
  onPassword: (password: string) => Promise<'done' | 'wrong' | 'failed'>;
  onClose: () => void;
};

/**
 * The account's password before a change of its two-step sign-in (turning it on or off, new
 * recovery codes): a wrong one shows by the field; other failures are toasts over the open dialog.
 */
export function PasswordDialog({ title, description, submitLabel, onPassword, onClose }: PasswordDialogProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [wrong, setWrong] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async () => {
    setSubmitted(true);
    if (password === '') return;
    setPending(true);
    try {
      if ((await onPassword(password)) === 'wrong') setWrong(true);
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      title={title}
      description={description}
      submitLabel={submitLabel}
      pendingLabel={t('account.secondFactor.password.checking')}
      pending={pending}
      onSubmit={submit}
      onClose={onClose}
    >
      <PasswordField
        label={t('password.current')}
        name="password"
        autoComplete="current-password"
        autoFocus
        required
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setWrong(false);
        }}
        error={
          wrong
            ? t('account.secondFactor.password.wrong')
            : submitted && password === ''
              ? t('form.required')
              : undefined
        }
      />
    </FormDialog>
  );
}
