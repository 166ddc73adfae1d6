import type { EmailSchema } from '@pivot/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, safeRedirect } from '@/config/paths';
import { useLocalize } from '@/i18n/use-locale';
import { loadSessionSchemas } from '@/lib/load-session-schemas';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { PasswordField } from '@/ui/form/password-field';
import { LiveFields } from '@/ui/form/live-fields';
import { TextField } from '@/ui/form/text-field';
import { AppLink } from '@/ui/link';
import { useLogin } from '../api/login';

/**
 * The contract's email check, fetched (with zod) once the user starts typing or sends the form,
 * not with the page: errors show only after sending, and sending waits for it.
 */
let emailSchema: typeof EmailSchema | undefined;
const loadEmailSchema = () => loadSessionSchemas().then((schemas) => (emailSchema = schemas.EmailSchema));

/** Email, password and "remember me"; once signed in, back to the page that asked for it. */
export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const [searchParams] = useSearchParams();
  const login = useLogin();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  const emailError = !emailSchema?.safeParse(email).success
    ? email.trim() === ''
      ? t('form.required')
      : t('form.invalidEmail')
    : undefined;
  const passwordError = password === '' ? t('form.required') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const schema = emailSchema ?? (await loadEmailSchema());
    setSubmitted(true);
    if (!schema.safeParse(email).success || passwordError) return;
    const signedIn = await login.run({ email, password, remember });
    if (signedIn) {
      await navigate(safeRedirect(searchParams.get('redirect')) ?? localize(paths.home.link()), { replace: true });
    }
  };

  return (
    <Card>
      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <LiveFields>
          <TextField
            label={t('login.email')}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(event) => {
              void loadEmailSchema();
              setEmail(event.target.value);
            }}
            error={submitted ? emailError : undefined}
          />
          <PasswordField
            label={t('login.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              void loadEmailSchema();
              setPassword(event.target.value);
            }}
            error={submitted ? passwordError : undefined}
          />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <CheckboxField
              label={t('login.remember')}
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
              onEnter={() => form.current?.requestSubmit()}
            />
            <AppLink to={paths.forgot.link()} className="text-sm font-medium text-water underline underline-offset-4">
              {t('login.forgot')}
            </AppLink>
          </div>
          <Button type="submit" disabled={login.isPending} className="mt-2 w-full">
            {login.isPending ? t('login.submitting') : t('login.submit')}
          </Button>
        </LiveFields>
      </form>
    </Card>
  );
}
