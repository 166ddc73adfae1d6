import { EmailSchema } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { Button, ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { LiveFields } from '@/ui/form/live-fields';
import { TextField } from '@/ui/form/text-field';
import { SuccessIcon } from '@/ui/other-icons';
import { useRequestPasswordEmail } from '../api/request-password-email';

/** Asks for a reset link by email; says the same whether or not the account exists. */
export function ForgotForm() {
  const { t } = useTranslation();
  const request = useRequestPasswordEmail();
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sent, setSent] = useState(false);
  const emailError = EmailSchema.safeParse(email).success
    ? undefined
    : t(email.trim() === '' ? 'form.required' : 'form.invalidEmail');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (emailError) return;
    if (await request.run({ email })) setSent(true);
  };

  return (
    <Card>
      {sent ? (
        <div role="status" className="flex items-start gap-3">
          <SuccessIcon className="mt-0.5 size-6 shrink-0 text-success" />
          <p>{t('forgot.sent')}</p>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <LiveFields>
            <TextField
              label={t('login.email')}
              type="email"
              name="email"
              autoComplete="username"
              inputMode="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={submitted ? emailError : undefined}
            />
            <Button type="submit" disabled={request.isPending} className="w-full">
              {t('forgot.submit')}
            </Button>
          </LiveFields>
        </form>
      )}
      <ButtonLink to={paths.login.link()} variant="secondary" className="mt-4 w-full">
        {t('forgot.backToLogin')}
      </ButtonLink>
    </Card>
  );
}
