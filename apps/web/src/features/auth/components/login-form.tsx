import type { EmailSchema, SecondFactorMethod } from '@pivot/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, safeRedirect } from '@/config/paths';
import { loadCataloguePart } from '@/i18n/i18n';
import { useLocalize } from '@/i18n/use-locale';
import { loadSessionSchemas } from '@/lib/load-session-schemas';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { PasswordField } from '@/ui/form/password-field';
import { LiveFields } from '@/ui/form/live-fields';
import { TextField } from '@/ui/form/text-field';
import { AppLink } from '@/ui/link';
import { WarningIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useLogin } from '../api/login';
import type { SecondFactorStep } from './second-factor-step';

/**
 * The contract's email check, fetched (with zod) once the user starts typing or sends the form,
 * not with the page: errors show only after sending, and sending waits for it.
 */
let emailSchema: typeof EmailSchema | undefined;
const loadEmailSchema = () => loadSessionSchemas().then((schemas) => (emailSchema = schemas.EmailSchema));

type Step = typeof SecondFactorStep;
let loadingStep: Promise<Step> | undefined;
/**
 * The second step's code and texts (and the error codes' texts it shows by its field), fetched
 * when a login answers a challenge: most sign-ins never need them, and /login paints without them.
 */
function loadSecondFactorStep(): Promise<Step> {
  loadingStep ??= Promise.all([
    import('./second-factor-step'),
    loadCataloguePart('secondFactor'),
    loadCataloguePart('errorCodes'),
  ]).then(
    ([module]) => module.SecondFactorStep,
    (error: unknown) => {
      loadingStep = undefined;
      throw error;
    },
  );
  return loadingStep;
}

/**
 * Email, password and "remember me"; for an account with two-step sign-in, then the code or the
 * passkey in the same card. Once signed in, back to the page that asked for it.
 */
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
  // The second step, once a right password answered a challenge; the code is asked in its place.
  const [secondStep, setSecondStep] = useState<{
    Step: Step;
    challenge: string;
    methods: SecondFactorMethod[];
  } | null>(null);
  const [openingStep, setOpeningStep] = useState(false);
  // Back from the second step: the password is asked again (and why, when the challenge ran out).
  const [returned, setReturned] = useState<'back' | 'expired' | null>(null);

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
    const answer = await login.run({ email, password, remember });
    if (!answer) return;
    if ('secondFactor' in answer) {
      await openSecondStep(answer.secondFactor.challenge, answer.secondFactor.methods);
      return;
    }
    await goOn();
  };

  const goOn = () =>
    navigate(safeRedirect(searchParams.get('redirect')) ?? localize(paths.home.link()), { replace: true });

  const openSecondStep = async (challenge: string, methods: SecondFactorMethod[]) => {
    setOpeningStep(true);
    try {
      const Step = await loadSecondFactorStep();
      setReturned(null);
      setSecondStep({ Step, challenge, methods });
    } catch {
      // The connection went between the password and the step's code.
      showToast({
        variant: 'error',
        title: t('errors.status.unknown.title'),
        message: t('errors.status.unknown.message'),
      });
    } finally {
      setOpeningStep(false);
    }
  };

  const backToPassword = (why: 'back' | 'expired') => {
    setSecondStep(null);
    setPassword('');
    setSubmitted(false);
    setReturned(why);
  };

  if (secondStep) {
    return (
      <Card>
        <secondStep.Step
          challenge={secondStep.challenge}
          methods={secondStep.methods}
          onSignedIn={goOn}
          onBack={() => backToPassword('back')}
          onExpired={() => backToPassword('expired')}
        />
      </Card>
    );
  }

  const pending = login.isPending || openingStep;
  return (
    <Card>
      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
        {returned === 'expired' && (
          <p role="alert" className="flex items-start gap-2 rounded-lg bg-warning-soft p-3 text-sm font-medium">
            <WarningIcon className="mt-0.5 size-5 shrink-0 text-warning" />
            {t('errorCodes.second_factor_challenge_expired.message')}
          </p>
        )}
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
            autoFocus={returned !== null}
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
          <Button type="submit" disabled={pending} className="mt-2 w-full">
            {pending ? t('login.submitting') : t('login.submit')}
          </Button>
        </LiveFields>
      </form>
    </Card>
  );
}
